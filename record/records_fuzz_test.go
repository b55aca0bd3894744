package record_test

import (
	"bytes"
	"strings"
	"testing"

	"github.com/srezc/srezc/record"
)

// FuzzDecodeRecords: any bytes decode to records or to an error naming a
// line; decoded records encode and decode to themselves, and encoding is a
// fixed point from then on (the same bytes the second time).
func FuzzDecodeRecords(f *testing.F) {
	f.Add([]byte(`{"task":"t","hash":"h","outcome":"scored","trajectory":[]}` + "\n"))
	f.Add([]byte("{\"task\":\n"))
	f.Add([]byte(`{"task":"t","hash":"h","usage":{"calls":1},"metrics":{"success":true}}`))
	f.Add([]byte(`{"task":"t","agent":"a","judge":{"judge_prompt":"judge-1","model":"m","key":"k","diagnosis_correct":false,"reason":"r"}}` + "\n" +
		`{"task":"t","agent":"a","judge":{"judge_prompt":"judge-1","model":"m","key":"k","infra_error":"HTTP 500"}}`))
	f.Add([]byte(`{"record_version":1,"task":"t","agent":"a","noise":"off"}` + "\n" + `{"record_version":2,"task":"t","agent":"a"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		recs, err := record.Decode("r.jsonl", bytes.NewReader(data))
		if err != nil {
			if !strings.HasPrefix(err.Error(), "r.jsonl") {
				t.Fatalf("error without the file: %v", err)
			}
			return
		}
		var buf bytes.Buffer
		for _, r := range recs {
			line, err := record.Marshal(&r)
			if err != nil {
				return // a non-finite float cannot be written; nothing to compare
			}
			buf.Write(line)
		}
		first := bytes.Clone(buf.Bytes())
		again, err := record.Decode("again", &buf)
		if err != nil || len(again) != len(recs) {
			t.Fatalf("re-decoding: %v (%d of %d)", err, len(again), len(recs))
		}
		var second []byte
		for _, r := range again {
			line, err := record.Marshal(&r)
			if err != nil {
				t.Fatalf("re-encoding: %v", err)
			}
			second = append(second, line...)
		}
		if !bytes.Equal(first, second) {
			t.Fatalf("encoding is not a fixed point:\n%s\n%s", first, second)
		}
	})
}
