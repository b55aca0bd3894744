// Command srezc-load is a load generator for srezc serve: C connections,
// each playing whole episodes one step request at a time over keep-alive
// HTTP, for a duration. It prints steps per second and the latency
// distribution of step requests.
//
//	srezc-load -url http://127.0.0.1:8080 -c 64 -d 30s
//
// With -mcp URL it churns sessions of srezc mcp --http instead (the MCP
// soak): open, a few tool calls, close, and every -abandon-th session
// left without a word for the server to reap.
//
// It acts as a trainer (chosen episode ids, closes, replay tokens) when
// SREZC_TRAINER_TOKEN holds the server's trainer token; an agent's
// requests can do none of that.
//
// Pin it and the server to separate cores to measure the server:
//
//	taskset -c 0 srezc serve --addr 127.0.0.1:8080 &
//	taskset -c 1 srezc-load -url http://127.0.0.1:8080 -c 64 -d 30s
package main

import (
	"bytes"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"time"
)

func main() {
	url := flag.String("url", "http://127.0.0.1:8080", "server")
	conns := flag.Int("c", 64, "connections (each plays its own episodes)")
	dur := flag.Duration("d", 30*time.Second, "duration")
	episodes := flag.Int("episodes", 0, "create this many episodes first and keep them live (memory test), then exit")
	token := flag.Bool("token", false, "send the replay token with each step (as a client of several replicas does)")
	mcpURL := flag.String("mcp", "", "churn MCP sessions of srezc mcp --http at this URL (http://HOST:PORT/mcp) instead")
	abandon := flag.Int("abandon", 4, "with -mcp, walk away from every N-th session without closing it")
	flag.Parse()
	if *mcpURL != "" {
		os.Exit(churnMCP(*mcpURL, *conns, *dur, *abandon))
	}
	if tok := os.Getenv("SREZC_TRAINER_TOKEN"); tok != "" {
		http.DefaultTransport = &trainerTransport{base: http.DefaultTransport, token: tok}
	}
	if *episodes > 0 {
		os.Exit(fill(*url, *episodes))
	}
	tasks, err := taskHandles(*url)
	if err != nil {
		fmt.Fprintln(os.Stderr, "srezc-load:", err)
		os.Exit(1)
	}
	actions := []string{"check_status(web_server)", "inspect_logs(database)", "inspect_metrics(cache)", "check_dependencies(web_server)", "inspect_config(load_balancer)", "inspect_traces(web_server)"}
	var steps, errors atomic.Int64
	lat := make([][]time.Duration, *conns)
	deadline := time.Now().Add(*dur)
	var wg sync.WaitGroup
	for c := 0; c < *conns; c++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			var rt http.RoundTripper = &http.Transport{MaxIdleConnsPerHost: 1, MaxConnsPerHost: 1}
			if tt, ok := http.DefaultTransport.(*trainerTransport); ok {
				rt = &trainerTransport{base: rt, token: tt.token}
			}
			hc := &http.Client{Transport: rt}
			for ep := 0; time.Now().Before(deadline); ep++ {
				id := fmt.Sprintf("load-%d-%d", c, ep)
				var rep reply
				if post(hc, *url+"/v1/episodes", map[string]any{"task": tasks[(c+ep)%len(tasks)], "seed": ep, "id": id}, &rep) != nil {
					errors.Add(1)
					continue
				}
				for k := 1; !rep.Done && time.Now().Before(deadline); k++ {
					body := map[string]any{"step": k, "action": actions[(k+c)%len(actions)]}
					if *token {
						body["token"] = rep.Token
					}
					start := time.Now()
					err := step(hc, *url+"/v1/episodes/"+id+"/step", body, &rep, *token)
					lat[c] = append(lat[c], time.Since(start))
					if err != nil {
						errors.Add(1)
						break
					}
					steps.Add(1)
				}
				req, _ := http.NewRequest("DELETE", *url+"/v1/episodes/"+id, nil)
				if resp, err := hc.Do(req); err == nil {
					io.Copy(io.Discard, resp.Body)
					resp.Body.Close()
				}
			}
		}()
	}
	wg.Wait()
	var all []time.Duration
	for _, l := range lat {
		all = append(all, l...)
	}
	slices.Sort(all)
	q := func(p float64) time.Duration {
		if len(all) == 0 {
			return 0
		}
		return all[min(len(all)-1, int(p*float64(len(all))))]
	}
	fmt.Printf("connections %d, %s: %d steps, %.0f steps/s, errors %d\n", *conns, *dur, steps.Load(), float64(steps.Load())/dur.Seconds(), errors.Load())
	fmt.Printf("step latency p50 %v  p90 %v  p99 %v  max %v\n", q(0.5), q(0.9), q(0.99), q(1))
}

type reply struct {
	Episode string `json:"episode"`
	Done    bool   `json:"done"`
	Token   string `json:"token"`
}

func post(hc *http.Client, url string, body any, out any) error {
	data, err := postRaw(hc, url, body)
	if err != nil {
		return err
	}
	return json.Unmarshal(data, out)
}

// postRaw posts body as JSON and returns the reply's body, or an error for
// a status of 300 or more.
func postRaw(hc *http.Client, url string, body any) ([]byte, error) {
	js, _ := json.Marshal(body)
	resp, err := hc.Post(url, "application/json", bytes.NewReader(js))
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		return nil, err
	}
	if resp.StatusCode >= 300 {
		return nil, fmt.Errorf("%s: %d %s", url, resp.StatusCode, data)
	}
	return data, nil
}

// step posts a step and reads only what the loop needs from the reply
// (done, and the token when asked for), so that the generator spends its
// core on requests, not on decoding observations.
func step(hc *http.Client, url string, body any, out *reply, wantToken bool) error {
	data, err := postRaw(hc, url, body)
	if err != nil {
		return err
	}
	out.Done = bytes.Contains(data, []byte(`"done":true`))
	if wantToken {
		if i := bytes.LastIndex(data, []byte(`"token":"`)); i >= 0 {
			rest := data[i+len(`"token":"`):]
			if j := bytes.IndexByte(rest, '"'); j >= 0 {
				out.Token = string(rest[:j])
			}
		}
	}
	return nil
}

func taskHandles(url string) ([]string, error) {
	resp, err := http.Get(url + "/v1/tasks")
	if err != nil {
		return nil, err
	}
	defer resp.Body.Close()
	var cat struct {
		Tasks []struct {
			Handle string `json:"handle"`
		} `json:"tasks"`
	}
	if err := json.NewDecoder(resp.Body).Decode(&cat); err != nil {
		return nil, err
	}
	var out []string
	for _, t := range cat.Tasks {
		out = append(out, t.Handle)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("the server has no tasks")
	}
	return out, nil
}

// fill creates n live episodes and steps each once, for a memory reading.
func fill(url string, n int) int {
	tasks, err := taskHandles(url)
	if err != nil {
		fmt.Fprintln(os.Stderr, "srezc-load:", err)
		return 1
	}
	hc := &http.Client{}
	var wg sync.WaitGroup
	var failed atomic.Int64
	next := make(chan int)
	for w := 0; w < 16; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range next {
				id := fmt.Sprintf("fill-%d", i)
				var rep reply
				if post(hc, url+"/v1/episodes", map[string]any{"task": tasks[i%len(tasks)], "seed": i, "id": id}, &rep) != nil ||
					post(hc, url+"/v1/episodes/"+id+"/step", map[string]any{"step": 1, "action": "inspect_logs(database)"}, &rep) != nil {
					failed.Add(1)
				}
			}
		}()
	}
	for i := 0; i < n; i++ {
		next <- i
	}
	close(next)
	wg.Wait()
	fmt.Printf("created %d live episodes (%d failed)\n", n, failed.Load())
	if failed.Load() > 0 {
		return 1
	}
	return 0
}

// trainerTransport presents the trainer token on every request.
type trainerTransport struct {
	base  http.RoundTripper
	token string
}

func (t *trainerTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	r = r.Clone(r.Context())
	r.Header.Set("X-Srezc-Trainer-Token", t.token)
	return t.base.RoundTrip(r)
}
