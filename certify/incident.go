package certify

import (
	"github.com/srezc/srezc/engine"
	"github.com/srezc/srezc/lang"
	"github.com/srezc/srezc/value"
)

// Incident is an incident compiled up to certification, as certification
// sees it. The compiler implements it: derived evidence, diagnosability and
// the fixed_when cross-check compare the incident with counterfactual
// worlds (a fault removed, a distractor alone, another fault kind in the
// fault's place), and only the compiler can build a world from source. So
// certification says which worlds it needs (Spec) and the compiler builds
// them; certify never imports the compiler.
type Incident interface {
	// Module is the analysed module the incident belongs to, and Source the
	// incident itself.
	Module() *lang.Module
	Source() *lang.Incident
	// Task is the task compiled up to certification: its evidence set is
	// still the expert's reads, its optimal step count the plan's length.
	Task() *engine.Task
	// Base is a slot's value in the world before any fault: the kind's
	// defaults, the site's configuration and the initial states.
	Base(slot engine.SlotID) value.Value
	// Truth is the incident's own world at step 1.
	Truth() *World
	// Worlds builds the world of each spec at step 1, beside truth; a nil
	// world is a spec that does not compile.
	Worlds(truth *World, specs []*Spec) []*World
}

// Spec is a counterfactual world: the incident with these fault and
// distractor blocks in place of its own.
type Spec struct {
	Name        string // for diagnostics: `the fault "x" on svc`
	Faults      []*lang.FaultUse
	Distractors []*lang.DistractorUse
}

// World is a world at step 1: one tick after Reset at Seed (a read
// advances the world one tick before it renders), noise off.
type World struct {
	Task    *engine.Task
	Episode *engine.Episode
	// Slots maps the incident's slot ids to this world's; nil: the layouts
	// are identical.
	Slots []engine.SlotID
}

// Seed is the seed certification episodes run under.
const Seed = 1
