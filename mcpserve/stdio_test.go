package mcpserve

import (
	"bytes"
	"encoding/json"
	"io"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// FuzzStdioLines: whatever comes in on stdin, every non-blank line is
// either passed on to the SDK as a JSON-RPC message (or batch) or answered
// with one JSON-RPC error line, never both and never neither; nothing
// panics (issue 15, finding 7: one malformed line ended the session).
func FuzzStdioLines(f *testing.F) {
	for _, seed := range []string{
		"not json\n{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n",
		"{}\n[1,2]\n[]\n\n   \n",
		"{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}\r\n{\"jsonrpc\":",
		"[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"},{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}]\n\x00\xff\n",
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, in string) {
		var out bytes.Buffer
		tr := StdioTransport(strings.NewReader(in), &out).(*mcp.IOTransport)
		// Nobody answers the requests passed on: closing first lets the
		// end of input through at once.
		tr.Reader.Close()
		passed, err := io.ReadAll(tr.Reader)
		if err != nil {
			t.Fatal(err)
		}
		lines := 0
		for _, l := range strings.Split(in, "\n") {
			if len(bytes.TrimSpace([]byte(l))) > 0 {
				lines++
			}
		}
		var got int
		for _, l := range bytes.Split(passed, []byte("\n")) {
			if len(l) == 0 {
				continue
			}
			got++
			if code, msg := check(l); code != 0 {
				t.Fatalf("passed on a line check refuses (%s): %q", msg, l)
			}
		}
		for _, l := range bytes.Split(out.Bytes(), []byte("\n")) {
			if len(l) == 0 {
				continue
			}
			got++
			var e struct {
				Error *jsonrpc.Error `json:"error"`
			}
			if json.Unmarshal(l, &e) != nil || e.Error == nil || (e.Error.Code != jsonrpc.CodeParseError && e.Error.Code != jsonrpc.CodeInvalidRequest) {
				t.Fatalf("an answer that is not a parse or request error: %q", l)
			}
		}
		if got != lines {
			t.Fatalf("%d non-blank lines in, %d passed on or answered", lines, got)
		}
	})
}
