package agents

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
)

// CallText writes a structured tool call (a model's native call, an MCP
// tools/call) as a text action: the arguments in the order the tool's
// spec lists them, then any others by name; strings quoted, numbers as
// written (150 stays an int, 150.0 a float), booleans bare. An unknown
// tool or arguments that are not a JSON object give an action the runtime
// rejects as invalid, which is what they are.
func CallText(specs []ToolSpec, name, argsJSON string) string {
	if strings.TrimSpace(argsJSON) == "" {
		argsJSON = "{}"
	}
	dec := json.NewDecoder(strings.NewReader(argsJSON))
	dec.UseNumber()
	var args map[string]any
	if err := dec.Decode(&args); err != nil {
		return fmt.Sprintf("%s(%s)", name, strconv.Quote("unreadable arguments: "+clip(argsJSON, 200)))
	}
	var order []string
	for _, s := range specs {
		if s.Name == name {
			for _, a := range s.Args {
				order = append(order, a.Name)
			}
		}
	}
	var extra []string
	for k := range args {
		if !slices.Contains(order, k) {
			extra = append(extra, k)
		}
	}
	sort.Strings(extra)
	var parts []string
	for _, k := range append(order, extra...) {
		if v, ok := args[k]; ok {
			parts = append(parts, literal(v))
		}
	}
	return name + "(" + strings.Join(parts, ", ") + ")"
}

func literal(v any) string {
	switch v := v.(type) {
	case json.Number:
		return v.String()
	case bool:
		return strconv.FormatBool(v)
	case string:
		return strconv.Quote(v)
	case nil:
		return `""`
	}
	var b bytes.Buffer
	_ = json.NewEncoder(&b).Encode(v)
	return strconv.Quote(strings.TrimSpace(b.String()))
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}
