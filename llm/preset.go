package llm

import (
	"fmt"
	"net"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Preset is a named provider policy: the pacing a kind of endpoint needs.
// srezc eval picks one from the base URL (PresetFor) unless --provider
// names one; single flags (--min-interval, --rate-calls, …) override its
// fields. README's "Provider presets" lists them.
type Preset struct {
	Name string
	// About says where the limits come from, for --help and README.
	About  string
	Policy Policy
	// hosts are the API hosts the preset is chosen for.
	hosts []string
}

// Presets lists the presets, in help order.
func Presets() []Preset {
	hosted := Policy{MaxRetries: 5, PauseAfter: 3, Pause: 30 * time.Second, Timeout: 120 * time.Second, Concurrency: 4,
		BackoffBase: time.Second, BackoffMax: 60 * time.Second}
	perMinute := func(p Policy, calls, concurrency int) Policy {
		p.RateCalls, p.RateWindow, p.Concurrency = calls, time.Minute, concurrency
		return p
	}
	return []Preset{
		{Name: "local", About: "a model served on this machine or a private network (vLLM, Ollama, LM Studio, llama.cpp): no pacing, 2 retries, 10 min per call",
			Policy: Policy{MaxRetries: 2, Timeout: 10 * time.Minute, Concurrency: 4, BackoffBase: 250 * time.Millisecond, BackoffMax: 2 * time.Second}},
		{Name: "hosted", About: "any other hosted API: no pacing until it answers 429 (its Retry-After is honoured), 5 retries, a 30 s pause after 3 failures in a row",
			Policy: hosted},
		{Name: "openai", About: "api.openai.com, usage tier 1: 500 calls a minute, 8 in flight", Policy: perMinute(hosted, 500, 8),
			hosts: []string{"api.openai.com"}},
		{Name: "groq", About: "api.groq.com, free tier: 30 calls a minute", Policy: perMinute(hosted, 30, 4),
			hosts: []string{"api.groq.com"}},
		{Name: "openrouter", About: "openrouter.ai, free models: 20 calls a minute", Policy: perMinute(hosted, 20, 4),
			hosts: []string{"openrouter.ai"}},
		{Name: "free-tier", About: "the reference's policy (spec §11.4), for the strictest free tiers: 15 s between calls, 5 a minute, a 60 s pause after 3 failures",
			Policy: DefaultPolicy()},
	}
}

// PresetNames lists the presets' names, in help order.
func PresetNames() []string {
	var names []string
	for _, p := range Presets() {
		names = append(names, p.Name)
	}
	return names
}

// PresetNamed returns the preset called name.
func PresetNamed(name string) (Preset, error) {
	for _, p := range Presets() {
		if p.Name == name {
			return p, nil
		}
	}
	return Preset{}, fmt.Errorf("unknown provider %q (want one of %s)", name, strings.Join(PresetNames(), ", "))
}

// PresetFor picks the preset for a base URL: a named provider's by its
// host; "local" for a server that is not on the public internet
// (loopback, a private or link-local address, localhost, a name without
// a dot such as a container's, .local, .internal, .lan, .home.arpa) or
// spoken to over plain http, which only a self-hosted server is;
// "hosted" for the rest.
func PresetFor(baseURL string) Preset {
	all := Presets()
	pick := func(name string) Preset {
		i := slices.IndexFunc(all, func(p Preset) bool { return p.Name == name })
		return all[i]
	}
	raw := baseURL
	if !strings.Contains(raw, "://") {
		raw = "https://" + raw
	}
	u, err := url.Parse(raw)
	if err != nil {
		return pick("hosted")
	}
	host := strings.ToLower(strings.TrimSuffix(u.Hostname(), "."))
	for _, p := range all {
		for _, h := range p.hosts {
			if host == h || strings.HasSuffix(host, "."+h) {
				return p
			}
		}
	}
	if u.Scheme == "http" || isPrivateHost(host) {
		return pick("local")
	}
	return pick("hosted")
}

func isPrivateHost(host string) bool {
	if ip := net.ParseIP(host); ip != nil {
		return ip.IsLoopback() || ip.IsPrivate() || ip.IsLinkLocalUnicast() || ip.IsUnspecified()
	}
	if host == "localhost" || !strings.Contains(host, ".") {
		return true
	}
	for _, suffix := range []string{".localhost", ".local", ".internal", ".lan", ".home.arpa"} {
		if strings.HasSuffix(host, suffix) {
			return true
		}
	}
	return false
}
