// Package action owns text actions: the native grammar (text.go: Parse,
// Format), the sre_zero profile's grammar (ref.go: ParseRef), binding a
// text to a compiled task (bind.go: Bind and the caller-owned Cache) and
// the structured tool-call form (call.go: Specs, the task's tools that
// agents.CallText orders a call's arguments by).
//
// It imports engine, whose Action and RefAction it builds, value, agents
// and participle; never lang, the compiler, HCL or expr, so eval and the
// servers, which only play compiled tasks, link no front end
// (layering_test.go). lang imports it to check expert plans.
package action
