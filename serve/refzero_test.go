package serve_test

import (
	"strings"
	"testing"

	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/internal/worldtest"
	"github.com/srezc/srezc/serve"
)

var refTask = worldtest.Reference

// A structured call on an imported SRE-Zero task binds its arguments in
// the tool's order, whatever the JSON object's order: inspect_config
// {service, key} used to be written alphabetically,
// inspect_config("DB_POOL_SIZE", "database"), and rejected, because an
// sre_zero task had no tool list to order them by (issue 17).
func TestReferenceToolCallArgumentOrder(t *testing.T) {
	tk := refTask(t, "db_pool_exhaustion.json")
	key := ""
	for _, s := range tk.Ref.Services {
		if s.Name == "database" && len(s.Config) > 0 {
			key = s.Config[0].Name
		}
	}
	if key == "" {
		t.Fatal("the database fixture has no config key")
	}
	_, hs := newServer(t, func(o *serve.Options) { o.Tasks = []*engine.Task{tk} })
	c := client{t: t, base: hs.URL, grader: true, trainer: true}
	if st, rep := c.do("POST", "/v1/episodes", map[string]any{"task": tk.ID, "seed": 1, "id": "ref"}); st != 201 {
		t.Fatalf("create: %d %v", st, rep)
	}
	for step, args := range []string{
		`{"service": "database", "key": "` + key + `"}`,
		`{"key": "` + key + `", "service": "database"}`,
	} {
		st, rep := c.do("POST", "/v1/episodes/ref/step", `{"step": `+string(rune('1'+step))+`, "tool": {"name": "inspect_config", "arguments": `+args+`}}`)
		if st != 200 {
			t.Fatalf("step %d: %d %v", step+1, st, rep)
		}
		obs, _ := rep["observation"].(string)
		if strings.Contains(obs, "Invalid action") || !strings.Contains(obs, key) {
			t.Errorf("inspect_config %s: observation %q, want the key's value", args, obs)
		}
		actions, _ := rep["grader"].(map[string]any)["actions"].([]any)
		if want := `inspect_config("database", "` + key + `")`; len(actions) != step+1 || actions[step] != want {
			t.Errorf("inspect_config %s: played %v, want %s", args, actions, want)
		}
	}
}
