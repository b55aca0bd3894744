package report

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/srezc/srezc/eval"
)

// Read reads a records.jsonl file: one eval.RecordLine per line (blank
// lines are skipped). A line that is not a record is an error naming
// path:line. A record without an outcome (written before outcomes existed)
// is a scored one.
//
// When several lines share a key (suite, task, hash, agent, model, prompt,
// seed, noise), the last one wins and takes the place of the first: a
// resumed sweep appends its retry of an infrastructure error.
func Read(path string) ([]eval.RecordLine, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readRecords(path, f)
}

type recordKey struct {
	suite, task, hash, agent, model, prompt, noise string
	seed                                           uint64
}

func readRecords(name string, r io.Reader) ([]eval.RecordLine, error) {
	br := bufio.NewReader(r)
	var out []eval.RecordLine
	at := map[recordKey]int{}
	for line := 1; ; line++ {
		text, err := br.ReadBytes('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if len(bytes.TrimSpace(text)) > 0 {
			rec, perr := parseRecord(text)
			if perr != nil {
				return nil, fmt.Errorf("%s:%d: %v", name, line, perr)
			}
			k := recordKey{rec.Suite, rec.Task, rec.Hash, rec.Agent, rec.Model, rec.Prompt, rec.Noise, rec.Seed}
			if i, seen := at[k]; seen {
				out[i] = rec
			} else {
				at[k] = len(out)
				out = append(out, rec)
			}
		}
		if err != nil { // io.EOF after the last line
			return out, nil
		}
	}
}

func parseRecord(text []byte) (eval.RecordLine, error) {
	var rec eval.RecordLine
	if err := json.Unmarshal(text, &rec); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return rec, fmt.Errorf("not a JSON record: %v (at byte %d)", se, se.Offset)
		}
		return rec, fmt.Errorf("not a record: %v", err)
	}
	switch {
	case rec.Task == "":
		return rec, fmt.Errorf("record has no task")
	case rec.Agent == "":
		return rec, fmt.Errorf("record has no agent")
	}
	switch rec.Outcome {
	case "":
		rec.Outcome = eval.OutcomeScored
	case eval.OutcomeScored, eval.OutcomeInfraError:
	default:
		return rec, fmt.Errorf("unknown outcome %q (want %q or %q)", rec.Outcome, eval.OutcomeScored, eval.OutcomeInfraError)
	}
	switch rec.Noise {
	case "", "on", "off":
	default:
		return rec, fmt.Errorf("unknown noise %q (want \"on\", \"off\" or none)", rec.Noise)
	}
	return rec, nil
}
