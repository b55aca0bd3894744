package record

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
)

// Read reads a records.jsonl. A line that is not a record is an error
// naming the file and line.
func Read(path string) ([]Line, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return Decode(path, f)
}

// Decode reads records.jsonl lines from r; name is used in errors, which
// say FILE:LINE. Blank lines are skipped. A record without an outcome
// (written before outcomes existed) is scored.
func Decode(name string, r io.Reader) ([]Line, error) {
	br := bufio.NewReader(r)
	var out []Line
	for line := 1; ; line++ {
		text, err := br.ReadBytes('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return nil, fmt.Errorf("%s:%d: %w", name, line, err)
		}
		if len(bytes.TrimSpace(text)) > 0 {
			rec, perr := DecodeLine(text)
			if perr != nil {
				return nil, fmt.Errorf("%s:%d: %v", name, line, perr)
			}
			out = append(out, rec)
		}
		if err != nil { // io.EOF after the last line
			return out, nil
		}
	}
}

// DecodeLine decodes one line. Unknown fields are ignored (an older srezc
// reads a newer line of the same version); a line must name its task and
// agent, and its outcome and noise must be ones this format knows. The
// error names no file: the caller knows where the line came from.
func DecodeLine(text []byte) (Line, error) {
	var rec Line
	if err := json.Unmarshal(text, &rec); err != nil {
		var se *json.SyntaxError
		if errors.As(err, &se) {
			return rec, fmt.Errorf("not a JSON record: %v (at byte %d)", se, se.Offset)
		}
		return rec, fmt.Errorf("not a record: %v", err)
	}
	switch {
	case rec.RecordVersion < 0 || rec.RecordVersion > Version:
		return rec, fmt.Errorf("record_version %d: this srezc reads records up to version %d", rec.RecordVersion, Version)
	case rec.Task == "":
		return rec, fmt.Errorf("record has no task")
	case rec.Agent == "":
		return rec, fmt.Errorf("record has no agent")
	}
	switch rec.Outcome {
	case "":
		rec.Outcome = OutcomeScored
	case OutcomeScored, OutcomeInfraError:
	default:
		return rec, fmt.Errorf("unknown outcome %q (want %q or %q)", rec.Outcome, OutcomeScored, OutcomeInfraError)
	}
	switch rec.Noise {
	case "", NoiseOn, NoiseOff:
	default:
		return rec, fmt.Errorf("unknown noise %q (want \"on\", \"off\" or none)", rec.Noise)
	}
	return rec, nil
}
