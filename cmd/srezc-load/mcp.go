package main

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// churnMCP is the MCP soak's client: conns workers, each opening sessions
// of srezc mcp --http one after another for dur, playing a few tool calls
// in each, then closing it, or, every abandon-th session, walking away
// without a word (the server must reap those). It prints the sessions
// opened, closed, abandoned and failed.
func churnMCP(url string, conns int, dur time.Duration, abandon int) int {
	var opened, closed, abandoned, failed, calls atomic.Int64
	deadline := time.Now().Add(dur)
	var wg sync.WaitGroup
	for w := 0; w < conns; w++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			// Each session on its own connections, which an abandoned
			// session leaves to the server's idle handling.
			for k := 0; time.Now().Before(deadline); k++ {
				hc := &http.Client{Transport: &http.Transport{}, Timeout: 30 * time.Second}
				ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
				cs, err := mcp.NewClient(&mcp.Implementation{Name: "srezc-load", Version: "1"}, nil).Connect(ctx,
					&mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc, DisableStandaloneSSE: true}, nil)
				if err != nil {
					failed.Add(1)
					cancel()
					time.Sleep(100 * time.Millisecond) // the cap's 503: back off a little
					continue
				}
				opened.Add(1)
				for _, svc := range []string{"database", "cache", "web_server"} {
					if _, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "check_status", Arguments: map[string]any{"service": svc}}); err == nil {
						calls.Add(1)
					}
				}
				if abandon > 0 && k%abandon == abandon-1 {
					abandoned.Add(1)
				} else {
					cs.Close()
					closed.Add(1)
				}
				hc.CloseIdleConnections()
				cancel()
			}
		}()
	}
	wg.Wait()
	fmt.Printf("mcp sessions over %s with %d workers: %d opened (%d closed, %d abandoned), %d tool calls, %d failed to open\n",
		dur, conns, opened.Load(), closed.Load(), abandoned.Load(), calls.Load(), failed.Load())
	return 0
}
