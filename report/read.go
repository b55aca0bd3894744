package report

import (
	"io"
	"os"

	"github.com/srezc/srezc/record"
)

// Read reads a records.jsonl file: one record.Line per line (blank
// lines are skipped). A line that is not a record is an error naming
// path:line. A record without an outcome (written before outcomes existed)
// is a scored one.
//
// When several lines share a key (suite, task, hash, agent, model, prompt,
// seed, noise), the last one wins and takes the place of the first: a
// resumed sweep appends its retry of an infrastructure error.
func Read(path string) ([]record.Line, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readRecords(path, f)
}

func readRecords(name string, r io.Reader) ([]record.Line, error) {
	recs, err := record.Decode(name, r)
	if err != nil {
		return nil, err
	}
	out := recs[:0]
	at := map[record.Key]int{}
	for _, rec := range recs {
		k := record.KeyOf(&rec)
		if i, seen := at[k]; seen {
			out[i] = rec
		} else {
			at[k] = len(out)
			out = append(out, rec)
		}
	}
	return out, nil
}
