package agents

import (
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
)

// Random draws tool calls over the argument domains it can read from the
// intro and from what it has observed, and writes some of them malformed
// the way a model does (a missing parenthesis, a misspelt tool, an unknown
// service, a missing argument, unquoted text). It is seeded, so an episode
// replays exactly.
type Random struct {
	seed  uint64
	rng   *rand.Rand
	intro Intro
	keys  []string
	words []string
}

// NewRandom returns a random agent; episode k of a run should use its own
// seed.
func NewRandom(seed uint64) *Random { return &Random{seed: seed} }

// keyGuesses are config keys a model might try before it has read any.
var keyGuesses = []string{"timeout_ms", "pool_size", "max_connections", "replicas", "memory_limit"}

var valueGuesses = []string{"100", "50", "0", "true", "false", "1000", "30000", `"/healthz"`, "8", "2.5", `"on"`}

var textGuesses = []string{"database", "cache", "connection", "pool", "restart", "latency", "timeout", "memory", "errors", "config", "fixed", "issue", "high", "load", "service"}

func (r *Random) Begin(intro string) {
	r.rng = rand.New(rand.NewPCG(r.seed, 0x5eed5eed))
	r.intro = ParseIntro(intro)
	r.keys = append(r.keys[:0], keyGuesses...)
	r.words = append(r.words[:0], textGuesses...)
}

func (r *Random) Act(obs string) (string, bool) {
	r.learn(obs)
	if len(r.intro.Tools) == 0 {
		return "noop()", true
	}
	tool := r.intro.Tools[r.rng.IntN(len(r.intro.Tools))]
	args := make([]string, 0, len(tool.Args))
	for i, a := range tool.Args {
		if tool.Optional[i] && r.rng.IntN(2) == 0 {
			break
		}
		args = append(args, r.arg(a))
	}
	name := tool.Name
	malformed := r.rng.IntN(6) == 0
	if malformed {
		switch r.rng.IntN(5) {
		case 0:
			return name + "(" + strings.Join(args, ", "), true
		case 1:
			name = strings.Replace(name, "_", "", 1)
		case 2:
			if len(args) > 0 {
				args = args[:len(args)-1]
			} else {
				args = append(args, "now")
			}
		case 3:
			if len(args) > 0 {
				args[0] = "svc-" + strconv.Itoa(r.rng.IntN(9))
			}
		case 4:
			for i := range args {
				args[i] = strings.Trim(args[i], `"`)
			}
		}
	}
	return name + "(" + strings.Join(args, ", ") + ")", true
}

func (r *Random) arg(name string) string {
	pick := func(xs []string) string { return xs[r.rng.IntN(len(xs))] }
	switch name {
	case "service":
		if len(r.intro.Services) == 0 {
			return "service"
		}
		return pick(r.intro.Services)
	case "key":
		return pick(r.keys)
	case "value":
		return pick(valueGuesses)
	default:
		n := 1 + r.rng.IntN(4)
		ws := make([]string, n)
		for i := range ws {
			ws[i] = pick(r.words)
		}
		return strconv.Quote(strings.Join(ws, " "))
	}
}

// learn collects config keys ("  key = value" lines) and words from an
// observation, as a model's context would.
func (r *Random) learn(obs string) {
	for _, line := range strings.Split(obs, "\n") {
		if k, _, ok := strings.Cut(strings.TrimSpace(line), " = "); ok && strings.HasPrefix(line, "  ") && isIdent(k) && !slices.Contains(r.keys, k) {
			r.keys = append(r.keys, k)
		}
	}
	for _, w := range strings.Fields(obs) {
		w = strings.Trim(w, ".,:;()[]{}\"'=")
		if len(w) >= 4 && isIdent(w) && len(r.words) < 200 && !slices.Contains(r.words, w) {
			r.words = append(r.words, w)
		}
	}
}

func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9') {
			return false
		}
	}
	return true
}
