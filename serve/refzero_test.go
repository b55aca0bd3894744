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

// An imported SRE-Zero task's view and tool schemas name its five
// services: they used to list none, because the view read only the native
// services, so a model had no enum to pick a service from (issue 17).
func TestReferenceTaskListsItsServices(t *testing.T) {
	tk := refTask(t, "db_pool_exhaustion.json")
	_, hs := newServer(t, func(o *serve.Options) { o.Tasks = []*engine.Task{tk} })
	c := client{t: t, base: hs.URL, grader: true, trainer: true}
	want := "web_server database cache message_queue load_balancer"
	_, cat := c.do("GET", "/v1/tasks", nil)
	views, _ := cat["tasks"].([]any)
	if len(views) != 1 {
		t.Fatalf("catalogue %v", cat)
	}
	if got := joinAny(views[0].(map[string]any)["services"]); got != want {
		t.Errorf("task view services %q, want %q", got, want)
	}
	st, rep := c.do("GET", "/v1/tasks/"+handleOf(t, hs.URL, tk)+"/tools", nil)
	if st != 200 {
		t.Fatalf("tools: %d %v", st, rep)
	}
	for _, x := range rep["tools"].([]any) {
		fn := x.(map[string]any)["function"].(map[string]any)
		props := fn["parameters"].(map[string]any)["properties"].(map[string]any)
		if svc, ok := props["service"].(map[string]any); ok {
			if got := joinAny(svc["enum"]); got != want {
				t.Errorf("%s: service enum %q, want %q", fn["name"], got, want)
			}
		}
	}
}

func joinAny(v any) string {
	list, _ := v.([]any)
	var parts []string
	for _, x := range list {
		s, _ := x.(string)
		parts = append(parts, s)
	}
	return strings.Join(parts, " ")
}
