package srezero

import (
	"errors"
	"fmt"
	"math"

	"github.com/srezc/srezc/value"
)

// Task is a task's sre_zero data: the fixture world and the grading
// spec, in the reference task file's terms (spec §2).
type Task struct {
	// Services are the five fixtures with the task's patches applied, in
	// the reference's order (web_server, database, cache, message_queue,
	// load_balancer).
	Services []Service `json:"services"`

	RootCause         string     `json:"root_cause"`
	RootCauseKeywords []string   `json:"root_cause_keywords"`
	Evidence          []Evidence `json:"evidence"`
	Fix               Fix        `json:"fix"`
	// DistractorServices count distractor_failures; Distractors are the
	// reference's informational notes, kept for export.
	DistractorServices        []string `json:"distractor_services,omitempty"`
	Distractors               []string `json:"distractors,omitempty"`
	TerminalOnWrongResolution bool     `json:"terminal_on_wrong_resolution"`
	// Metadata is the task file's metadata map, in key order.
	Metadata []Pair `json:"metadata,omitempty"`
}

// Service is one service fixture.
type Service struct {
	Name         string   `json:"name"`
	Status       string   `json:"status"`
	Logs         []string `json:"logs"`
	Metrics      []Field  `json:"metrics"`
	Config       []Field  `json:"config"`
	Dependencies []string `json:"dependencies"`
}

// Field is one metric or config entry; Value keeps its exact type
// (spec §1.1: True stays bool, 100 int, 1.5 float, "100" string).
type Field struct {
	Name  string      `json:"name"`
	Value value.Value `json:"value"`
}

// Pair is one string-to-string entry.
type Pair struct {
	Key   string `json:"key"`
	Value string `json:"value"`
}

// Evidence is one relevant-evidence key ("action_type:service[:KEY]")
// and its description (never shown to agents).
type Evidence struct {
	Key         string `json:"key"`
	Description string `json:"description"`
}

// Fix is the task's correct_fix (spec §2, §5.2–5.3).
type Fix struct {
	ActionType string      `json:"action_type"`
	Service    string      `json:"service"`
	Key        string      `json:"key,omitempty"`
	HasKey     bool        `json:"has_key,omitempty"`
	MinNumeric float64     `json:"min_numeric,omitempty"`
	HasMin     bool        `json:"has_min,omitempty"`
	Exact      value.Value `json:"exact"` // null (zero Value) when absent
	// FixKeywords are matched against the resolution's fix text.
	FixKeywords []string `json:"fix_keywords"`
}

// Validate checks everything Step and the renderer index by: the five
// services in the reference's order, every fixture value set and every
// name once, and a fix and distractors that name known services.
func (t *Task) Validate() error {
	if len(t.Services) != len(ServiceNames) {
		return fmt.Errorf("ref: %d services, want the reference's %d", len(t.Services), len(ServiceNames))
	}
	for i := range t.Services {
		s := &t.Services[i]
		if s.Name != ServiceNames[i] {
			return fmt.Errorf("ref: service %d is %q, want %q", i, s.Name, ServiceNames[i])
		}
		for _, group := range [][]Field{s.Metrics, s.Config} {
			for j, f := range group {
				if f.Value.K == value.Null || f.Value.K > value.String {
					return fmt.Errorf("ref: service %s: %s has no value", s.Name, f.Name)
				}
				for k := 0; k < j; k++ {
					if group[k].Name == f.Name {
						return fmt.Errorf("ref: service %s: %s appears twice", s.Name, f.Name)
					}
				}
			}
		}
		for _, d := range s.Dependencies {
			if !knownService(d) {
				return fmt.Errorf("ref: service %s depends on unknown %q", s.Name, d)
			}
		}
	}
	f := &t.Fix
	if ActionIndex(f.ActionType) < 0 {
		return fmt.Errorf("ref: fix action type %q", f.ActionType)
	}
	if !knownService(f.Service) {
		return fmt.Errorf("ref: fix service %q", f.Service)
	}
	if f.Key != "" && !f.HasKey {
		return errors.New("ref: fix key without has_key")
	}
	if f.Exact.K > value.String || math.IsNaN(f.MinNumeric) && f.HasMin {
		return errors.New("ref: bad fix value")
	}
	for _, d := range t.DistractorServices {
		if !knownService(d) {
			return fmt.Errorf("ref: distractor service %q", d)
		}
	}
	return nil
}
