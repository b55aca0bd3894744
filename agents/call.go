package agents

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
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
//
// A value for a config key whose type the spec declares (ArgSpec.Keys) is
// written as that type when JSON cannot say it or a client's form could
// not: JSON has one number type (JavaScript writes 60.0 as 60) and form
// builders such as the MCP Inspector send "60". So an integral number or a
// string holding an integer is an int for an int key; any number, or a
// string holding one, is a float for a float key; "true" and "false" are
// bools for a bool key. Nothing else converts: 60.5 for an int key, "60"
// for a string key, or "sixty" stay as written and the runtime rejects the
// wrong type, as it does in the text grammar, where the literal says its
// type.
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
	var spec []ArgSpec
	for _, s := range specs {
		if s.Name == name {
			spec = s.Args
			for _, a := range s.Args {
				order = append(order, a.Name)
			}
		}
	}
	key := ""
	for _, a := range spec {
		if k, ok := args[a.Name].(string); ok && a.Type == "config_key" {
			key = k
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
	for i, k := range append(order, extra...) {
		v, ok := args[k]
		if !ok {
			continue
		}
		if i < len(spec) && spec[i].Type == "value" {
			if lit, ok := typedLiteral(v, keyType(spec[i].Keys, key)); ok {
				parts = append(parts, lit)
				continue
			}
		}
		parts = append(parts, literal(v))
	}
	return name + "(" + strings.Join(parts, ", ") + ")"
}

func keyType(keys []KeyType, key string) string {
	i, ok := slices.BinarySearchFunc(keys, key, func(k KeyType, key string) int { return strings.Compare(k.Key, key) })
	if !ok {
		return ""
	}
	return keys[i].Type
}

// typedLiteral writes v as a literal of type typ when it converts exactly
// (see CallText).
func typedLiteral(v any, typ string) (string, bool) {
	text := ""
	switch v := v.(type) {
	case json.Number:
		text = v.String()
	case string:
		text = strings.TrimSpace(v)
	default:
		return "", false
	}
	switch typ {
	case "int":
		if i, err := strconv.ParseInt(text, 10, 64); err == nil {
			return strconv.FormatInt(i, 10), true
		}
		if f, err := strconv.ParseFloat(text, 64); err == nil && f == math.Trunc(f) && math.Abs(f) < 1<<53 {
			return strconv.FormatInt(int64(f), 10), true
		}
	case "float":
		if f, err := strconv.ParseFloat(text, 64); err == nil && !math.IsInf(f, 0) && !math.IsNaN(f) {
			s := strconv.FormatFloat(f, 'f', -1, 64)
			if !strings.ContainsAny(s, ".eE") {
				s += ".0"
			}
			return s, true
		}
	case "bool":
		if text == "true" || text == "false" {
			return text, true
		}
	}
	return "", false
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
