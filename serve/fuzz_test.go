package serve_test

import (
	"bytes"
	"net/http/httptest"
	"testing"
)

// FuzzRequests: any body on any route, as an agent or a trainer, gets a
// reply below 500, with a message; the server never panics.
func FuzzRequests(f *testing.F) {
	s, _ := newServer(f, nil)
	h := s.Handler()
	tk := tasks(f)[0]
	setup := httptest.NewRequest("POST", "/v1/episodes", bytes.NewReader([]byte(`{"task":"`+tk.ID+`","id":"fz"}`)))
	setup.Header.Set("X-Srezc-Trainer-Token", "trainer")
	created := httptest.NewRecorder()
	if h.ServeHTTP(created, setup); created.Code != 201 {
		f.Fatalf("setup: %d %s", created.Code, created.Body)
	}
	routes := []string{"/v1/episodes", "/v1/episodes/fz/step", "/v1/episodes/fz/fork", "/v1/batch/episodes", "/v1/batch/steps", "/reset", "/step", "/mcp"}
	for i, b := range []string{`{"step":1,"action":"inspect_logs(database)"}`, `{"task":"` + tk.ID + `"}`, `{"group":{"task":"` + tk.ID + `","count":2}}`,
		`{"jsonrpc":"2.0","method":"tools/call","params":{"name":"check_status","arguments":{"service":"cache"}},"id":1}`,
		`{"action":{"type":"call_tool","tool_name":"x","arguments":[]},"episode_id":"fz"}`, `{"steps":[{"episode":"fz","step":1,"tool":{"name":"update_config","arguments":{"service":"a","key":"b","value":1e400}}}]}`} {
		f.Add(uint8(i), b)
		f.Add(uint8(128+i), b)
	}
	f.Fuzz(func(t *testing.T, route uint8, body string) {
		path := routes[int(route)%len(routes)]
		req := httptest.NewRequest("POST", path, bytes.NewReader([]byte(body)))
		if route >= 128 {
			req.Header.Set("X-Srezc-Trainer-Token", "trainer")
		}
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code >= 500 {
			t.Fatalf("POST %s %q: %d %s", path, body, w.Code, w.Body)
		}
		if w.Code >= 400 && !bytes.Contains(w.Body.Bytes(), []byte(`"`)) {
			t.Fatalf("POST %s %q: %d with no message", path, body, w.Code)
		}
	})
}
