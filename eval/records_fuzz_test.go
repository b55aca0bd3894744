package eval_test

import (
	"bytes"
	"encoding/json"
	"strings"
	"testing"

	"github.com/srezc/srezc/eval"
)

// FuzzDecodeRecords: any bytes decode to records or to an error naming a
// line; decoded records encode and decode to themselves.
func FuzzDecodeRecords(f *testing.F) {
	f.Add([]byte(`{"task":"t","hash":"h","outcome":"scored","trajectory":[]}` + "\n"))
	f.Add([]byte("{\"task\":\n"))
	f.Add([]byte(`{"task":"t","hash":"h","usage":{"calls":1},"metrics":{"success":true}}`))
	f.Add([]byte(`{"task":"t","agent":"a","judge":{"judge_prompt":"judge-1","model":"m","key":"k","diagnosis_correct":false,"reason":"r"}}` + "\n" +
		`{"task":"t","agent":"a","judge":{"judge_prompt":"judge-1","model":"m","key":"k","infra_error":"HTTP 500"}}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, err := eval.DecodeRecords("r.jsonl", bytes.NewReader(data))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "r.jsonl") {
				t.Fatalf("error without the file: %v", err)
			}
			return
		}
		var buf bytes.Buffer
		for _, r := range recs {
			line, err := json.Marshal(r)
			if err != nil {
				return // a non-finite float cannot be written; nothing to compare
			}
			buf.Write(line)
			buf.WriteByte('\n')
		}
		again, err := eval.DecodeRecords("again", &buf)
		if err != nil || len(again) != len(recs) {
			t.Fatalf("re-decoding: %v (%d of %d)", err, len(again), len(recs))
		}
	})
}
