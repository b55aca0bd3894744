package agents

import (
	"reflect"
	"strings"
	"testing"
)

const intro = `ALERT: Something is wrong.
You are on call. Step budget: 10.
Services: lb web db
Tools:
  inspect_logs(service)
      Show logs (of a service).
  inspect_config(service, key?)
  resolve_incident(root_cause, fix)
  escalate()
`

func TestParseIntro(t *testing.T) {
	got := ParseIntro(intro)
	want := Intro{
		Alert:    "Something is wrong.",
		Services: []string{"lb", "web", "db"},
		Tools: []ToolSig{
			{Name: "inspect_logs", Args: []string{"service"}, Optional: []bool{false}},
			{Name: "inspect_config", Args: []string{"service", "key"}, Optional: []bool{false, true}},
			{Name: "resolve_incident", Args: []string{"root_cause", "fix"}, Optional: []bool{false, false}},
			{Name: "escalate"},
		},
		Budget: 10,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("ParseIntro:\n got %+v\nwant %+v", got, want)
	}
}

func play(a Agent, n int) []string {
	a.Begin(intro)
	var out []string
	obs := ""
	for i := 0; i < n; i++ {
		act, ok := a.Act(obs)
		if !ok {
			break
		}
		out = append(out, act)
		obs = "web config:\n  pool_size = 10\n  cache_host = cache-old\n"
	}
	return out
}

func TestRandomIsSeededAndVaried(t *testing.T) {
	a := play(NewRandom(42), 200)
	b := play(NewRandom(42), 200)
	if !reflect.DeepEqual(a, b) {
		t.Fatal("same seed, different actions")
	}
	if reflect.DeepEqual(a, play(NewRandom(43), 200)) {
		t.Error("different seeds, same actions")
	}
	// Begin resets the draw, so one agent replays an episode exactly.
	r := NewRandom(42)
	play(r, 50)
	if !reflect.DeepEqual(a, play(r, 200)) {
		t.Error("Begin does not restart the seeded sequence")
	}
	tools, learned, malformed := map[string]bool{}, false, 0
	for _, s := range a {
		name, _, _ := strings.Cut(s, "(")
		tools[name] = true
		learned = learned || strings.Contains(s, "cache_host")
		if !strings.HasSuffix(s, ")") || strings.Contains(s, "svc-") || strings.HasPrefix(s, "inspectlogs") {
			malformed++
		}
	}
	if len(tools) < 4 {
		t.Errorf("random agent used only %d tools", len(tools))
	}
	if !learned {
		t.Error("random agent never used a config key it observed")
	}
	if malformed == 0 || malformed > len(a)/2 {
		t.Errorf("%d of %d actions malformed; want some, not most", malformed, len(a))
	}
}

func TestScriptedAndReplay(t *testing.T) {
	got := play(NewReplay("# plan\n a() \n\nb(x)\n"), 10)
	if !reflect.DeepEqual(got, []string{"a()", "b(x)"}) {
		t.Errorf("replay = %q", got)
	}
	s := NewScripted([]string{"x()"})
	if !reflect.DeepEqual(play(s, 5), []string{"x()"}) || !reflect.DeepEqual(play(s, 5), []string{"x()"}) {
		t.Error("scripted agent does not restart its plan on Begin")
	}
}
