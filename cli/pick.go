package cli

import (
	"encoding/json"
	"fmt"
	"io"

	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
)

// pickTask finds a task by its incident id; an unknown id is a usage error
// naming the nearest one.
func pickTask(tasks []*engine.Task, id string) (*engine.Task, error) {
	ids := make([]string, len(tasks))
	for i, t := range tasks {
		if t.ID == id {
			return t, nil
		}
		ids[i] = t.ID
	}
	return nil, noIncident(id, ids)
}

func noIncident(id string, ids []string) error {
	return usageError{fmt.Errorf("no incident %q.%s", id, lang.DidYouMean(id, ids))}
}

// writeJSON prints v as indented JSON and a newline.
func writeJSON(w io.Writer, v any) error {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintln(w, string(b))
	return err
}
