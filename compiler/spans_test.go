package compiler

import (
	"testing"

	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
)

// The language and the runtime bound a kind's declared spans alike: the
// runtime's span ids have room for as many as the checker admits.
func TestTraceSpanBoundsAgree(t *testing.T) {
	if lang.MaxTraceSpans != engine.MaxTraceSpans {
		t.Fatalf("lang.MaxTraceSpans %d, engine.MaxTraceSpans %d", lang.MaxTraceSpans, engine.MaxTraceSpans)
	}
}

// The stdlib's declared spans lower onto each service: the web tier's call
// to the card processor (a client span with its own status), and the
// queue's job run, whose calls are the database its role binds.
func TestTraceSpansLowered(t *testing.T) {
	tk := shippedTask(t, "checkout_waits_on_processor")
	byName := map[string]int{}
	for i, s := range tk.Services {
		byName[s.Name] = i
	}
	web := tk.Services[byName["web_server"]]
	if len(web.Spans) != 1 || web.Spans[0].Kind != engine.SpanClient || web.Spans[0].Name != "POST api.paylane.example/v1/authorizations" {
		t.Fatalf("web_server spans: %+v", web.Spans)
	}
	if sp := web.Spans[0]; sp.Latency == engine.NoSlot || sp.ErrorRate == engine.NoSlot || sp.Status == engine.NoSlot || sp.Wait != engine.NoSlot {
		t.Errorf("the card processor span's slots: %+v", sp)
	}
	mq := tk.Services[byName["message_queue"]]
	if len(mq.Spans) != 1 || mq.Spans[0].Kind != engine.SpanConsumer {
		t.Fatalf("message_queue spans: %+v", mq.Spans)
	}
	if sp := mq.Spans[0]; sp.Wait == engine.NoSlot || len(sp.Calls) != 1 || int(sp.Calls[0]) != byName["database"] {
		t.Errorf("the job run span: %+v", sp)
	}
}
