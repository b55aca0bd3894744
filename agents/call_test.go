package agents_test

import (
	"testing"

	"github.com/srezc/srezc/agents"
)

// TestCallTextTypesValuesByKey: a structured call's value is written as
// its key's declared type when JSON, or a client's form, cannot say it
// (one number type; the MCP Inspector sends "60"), and as written
// otherwise, so the runtime rejects a real type error as it does in text.
func TestCallTextTypesValuesByKey(t *testing.T) {
	specs := []agents.ToolSpec{{Name: "update_config", Args: []agents.ArgSpec{
		{Name: "service", Type: "service"},
		{Name: "key", Type: "config_key"},
		{Name: "value", Type: "value", Keys: []agents.KeyType{
			{Key: "cache_host", Type: "string"},
			{Key: "compression_enabled", Type: "bool"},
			{Key: "hit_ratio", Type: "float"},
			{Key: "pool_size", Type: "int"},
		}},
	}}}
	for _, c := range []struct{ args, want string }{
		{`{"service":"db","key":"pool_size","value":60}`, `update_config("db", "pool_size", 60)`},
		{`{"service":"db","key":"pool_size","value":"60"}`, `update_config("db", "pool_size", 60)`},
		{`{"service":"db","key":"pool_size","value":" 60 "}`, `update_config("db", "pool_size", 60)`},
		{`{"service":"db","key":"pool_size","value":60.0}`, `update_config("db", "pool_size", 60)`},
		{`{"service":"db","key":"pool_size","value":60.5}`, `update_config("db", "pool_size", 60.5)`},
		{`{"service":"db","key":"pool_size","value":"sixty"}`, `update_config("db", "pool_size", "sixty")`},
		{`{"service":"db","key":"pool_size","value":true}`, `update_config("db", "pool_size", true)`},
		{`{"service":"db","key":"hit_ratio","value":1}`, `update_config("db", "hit_ratio", 1.0)`},
		{`{"service":"db","key":"hit_ratio","value":"0.5"}`, `update_config("db", "hit_ratio", 0.5)`},
		{`{"service":"db","key":"compression_enabled","value":"true"}`, `update_config("db", "compression_enabled", true)`},
		{`{"service":"db","key":"compression_enabled","value":"yes"}`, `update_config("db", "compression_enabled", "yes")`},
		{`{"service":"db","key":"cache_host","value":"10"}`, `update_config("db", "cache_host", "10")`},
		{`{"service":"db","key":"cache_host","value":10}`, `update_config("db", "cache_host", 10)`},
		// A key the spec does not type is taken as written.
		{`{"service":"db","key":"unknown_key","value":"60"}`, `update_config("db", "unknown_key", "60")`},
		{`{"value":"60","key":"pool_size","service":"db"}`, `update_config("db", "pool_size", 60)`},
	} {
		if got := agents.CallText(specs, "update_config", c.args); got != c.want {
			t.Errorf("CallText(%s) = %s, want %s", c.args, got, c.want)
		}
	}
}

// A tool whose only argument is optional (list_changes) is called with it
// or without it; an empty or missing argument object is the bare call.
func TestCallTextOptionalOnlyArgument(t *testing.T) {
	specs := []agents.ToolSpec{{Name: "list_changes", Args: []agents.ArgSpec{{Name: "service", Type: "service", Optional: true}}}}
	for _, c := range []struct{ args, want string }{
		{`{}`, `list_changes()`},
		{``, `list_changes()`},
		{`{"service":"cache"}`, `list_changes("cache")`},
	} {
		if got := agents.CallText(specs, "list_changes", c.args); got != c.want {
			t.Errorf("CallText(%q) = %s, want %s", c.args, got, c.want)
		}
	}
}
