package record_test

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/srezc/srezc/record"
)

// testdata/records.jsonl holds two lines written by srezc eval before the
// format moved into this package, and two hand-written ones that set
// every optional field: each must decode and encode to the same bytes.
func TestLinesRoundTripByteForByte(t *testing.T) {
	data, err := os.ReadFile(filepath.Join("testdata", "records.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	lines := bytes.SplitAfter(data, []byte{'\n'})
	lines = lines[:len(lines)-1] // after the last newline
	if len(lines) != 4 {
		t.Fatalf("%d lines in testdata/records.jsonl, want 4", len(lines))
	}
	for i, line := range lines {
		r, err := record.DecodeLine(line)
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		got, err := record.Marshal(&r)
		if err != nil {
			t.Fatalf("line %d: %v", i+1, err)
		}
		if !bytes.Equal(got, line) {
			t.Errorf("line %d changes when re-encoded:\n got %s\nwant %s", i+1, got, line)
		}
	}
	recs, err := record.Read(filepath.Join("testdata", "records.jsonl"))
	if err != nil || len(recs) != 4 {
		t.Fatalf("Read: %d records, %v", len(recs), err)
	}
	if r := recs[2]; r.Usage == nil || r.Usage.PromptTokens != 1200 || r.Judge == nil || r.Judge.DiagnosisCorrect == nil ||
		*r.Judge.DiagnosisCorrect || r.Noise != record.NoiseOff || r.Trajectory[0].Reply == "" || r.Metrics.Terminal != record.TerminalAgentError {
		t.Errorf("the full line decoded as %+v", r)
	}
	if r := recs[3]; r.Outcome != record.OutcomeInfraError || r.InfraError == "" || r.Profile != record.ProfileSreZero {
		t.Errorf("the infra-error line decoded as %+v", r)
	}
}

func TestDecodeErrorsNameFileAndLine(t *testing.T) {
	good := `{"task":"t","agent":"a"}` + "\n"
	for _, c := range []struct{ text, want string }{
		{good + `{"task":"t"}`, "r.jsonl:2: record has no agent"},
		{good + "\n" + `{"agent":"a"}`, "r.jsonl:3: record has no task"},
		{`{"task":"t","agent":"a","outcome":"lost"}`, `r.jsonl:1: unknown outcome "lost"`},
		{`{"task":"t","agent":"a","noise":"loud"}`, `r.jsonl:1: unknown noise "loud"`},
		{`{"task":"t","agent":"a","record_version":2}`, "r.jsonl:1: record_version 2: this srezc reads records up to version 1"},
		{`{"task":"t","agent":"a","record_version":-1}`, "r.jsonl:1: record_version -1"},
		{`{"task":`, "r.jsonl:1: not a JSON record"},
		{`{"task":"t","agent":"a","seed":"one"}`, "r.jsonl:1: not a record"},
	} {
		_, err := record.Decode("r.jsonl", strings.NewReader(c.text))
		if err == nil || !strings.HasPrefix(err.Error(), c.want) {
			t.Errorf("%q: error %v, want %q", c.text, err, c.want)
		}
	}
	// Tolerated: a record older than outcomes (scored), a version-1 line
	// that says so, blank lines, unknown fields, no final newline.
	recs, err := record.Decode("r.jsonl", strings.NewReader("\n"+`{"task":"t","agent":"a","record_version":1,"later":true}`+"\n\n"+`{"task":"u","agent":"a"}`))
	if err != nil || len(recs) != 2 || recs[0].Outcome != record.OutcomeScored || recs[1].Task != "u" {
		t.Fatalf("%+v, %v", recs, err)
	}
}

func TestAppendAndWriteFileAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "sub", "records.jsonl")
	for _, task := range []string{"a", "b"} {
		if err := record.Append(path, &record.Line{Task: task, Agent: "human:x", Outcome: record.OutcomeScored}); err != nil {
			t.Fatal(err)
		}
	}
	recs, err := record.Read(path)
	if err != nil || len(recs) != 2 || recs[1].Task != "b" {
		t.Fatalf("%+v, %v", recs, err)
	}
	if err := record.WriteFileAtomicMode(path, []byte("x\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	st, err := os.Stat(path)
	if err != nil || st.Mode().Perm() != 0o600 {
		t.Fatalf("mode %v, %v", st.Mode(), err)
	}
	left, _ := filepath.Glob(filepath.Join(dir, "sub", ".*"))
	if len(left) != 0 {
		t.Errorf("temporary files left: %v", left)
	}
}
