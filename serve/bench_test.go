package serve_test

import (
	"bytes"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkStepHandler is the server's own cost of a step request (no
// network): decode, step, render, seal the token, encode the reply. It
// plays as a trainer (chosen episode ids, closes and tokens are theirs).
func BenchmarkStepHandler(b *testing.B) {
	s, _ := newServer(b, nil)
	h := s.Handler()
	tk := tasks(b)[0]
	actions := []string{"check_status(web_server)", "inspect_logs(database)", "inspect_metrics(cache)"}
	ep, k := 0, 0
	create := func() {
		ep++
		k = 0
		req := httptest.NewRequest("POST", "/v1/episodes", bytes.NewReader([]byte(fmt.Sprintf(`{"task":%q,"id":"b%d"}`, tk.ID, ep))))
		req.Header.Set("X-Srezc-Trainer-Token", "trainer")
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
	create()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if k == tk.Budget-1 {
			b.StopTimer()
			del := httptest.NewRequest("DELETE", fmt.Sprintf("/v1/episodes/b%d", ep), nil)
			del.Header.Set("X-Srezc-Trainer-Token", "trainer")
			h.ServeHTTP(httptest.NewRecorder(), del)
			create()
			b.StartTimer()
		}
		k++
		body := fmt.Sprintf(`{"step":%d,"action":%q}`, k, actions[k%len(actions)])
		req := httptest.NewRequest("POST", fmt.Sprintf("/v1/episodes/b%d/step", ep), bytes.NewReader([]byte(body)))
		req.Header.Set("X-Srezc-Trainer-Token", "trainer")
		w := httptest.NewRecorder()
		h.ServeHTTP(w, req)
		if w.Code != http.StatusOK {
			b.Fatalf("%d %s", w.Code, w.Body)
		}
	}
}
