package lang

import (
	"reflect"
	"testing"

	"github.com/srezc/srezc/action"
)

// TestParseActionCached: a cached parse equals action.Parse's, for calls
// and for errors, and each caller gets a copy it may change.
func TestParseActionCached(t *testing.T) {
	for _, src := range []string{`update_config(database, "pool_size", 50)`, `check_status(`, `inspect_logs(web)`, ``} {
		wantCall, wantErr := action.Parse(src)
		for range 2 {
			call, err := parseAction(src)
			if !reflect.DeepEqual(call, wantCall) || !reflect.DeepEqual(err, wantErr) {
				t.Fatalf("%q: got %+v, %+v; want %+v, %+v", src, call, err, wantCall, wantErr)
			}
			if len(call.Args) > 0 {
				call.Args[0].Bare = !call.Args[0].Bare
			}
			if err != nil && err.Subject != nil {
				err.Subject.Filename += "x"
			}
		}
	}
}
