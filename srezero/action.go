package srezero

import (
	"strings"

	"github.com/srezc/srezc/value"
)

// Action is an action parsed by the sre_zero grammar (spec §4.1–4.2;
// action.ParseRef). Err is the parse error message ("" when the text
// parsed); Canonical is the canonical form, or the raw text when it did
// not parse.
type Action struct {
	Type      string // one of the eight action types; "" on a parse error
	Service   string // service actions
	Key       string // inspect_config (when HasKey) and update_config
	HasKey    bool
	Value     value.Value // update_config, coerced as §4.1 step 5 says
	RootCause string
	Fix       string
	Reason    string
	Canonical string
	Err       string
}

// The action types, in the reference's order (spec §1.1).
const (
	InspectLogs = iota
	InspectMetrics
	CheckStatus
	InspectConfig
	RestartService
	UpdateConfig
	ResolveIncident
	Escalate
	ActionCount
)

// ActionTypes names the action types.
var ActionTypes = [ActionCount]string{
	"inspect_logs", "inspect_metrics", "check_status", "inspect_config",
	"restart_service", "update_config", "resolve_incident", "escalate",
}

// ServiceNames is the reference's closed set of services, in fixture
// order; a task's Services hold exactly these.
var ServiceNames = [...]string{"web_server", "database", "cache", "message_queue", "load_balancer"}

// ActionIndex is the action type called name, or -1.
func ActionIndex(name string) int {
	for i, n := range ActionTypes {
		if n == name {
			return i
		}
	}
	return -1
}

// ServiceAction reports whether an action type names a service.
func ServiceAction(typ int) bool { return typ >= 0 && typ <= UpdateConfig }

func knownService(name string) bool {
	for _, n := range ServiceNames {
		if n == name {
			return true
		}
	}
	return false
}

// Code classifies why an action is invalid, so that engine can count and
// name sre_zero errors like native ones.
type Code uint8

const (
	OK Code = iota
	Syntax
	UnknownAction
	Arity
	EmptyText
	UnknownService
)

// ErrUnbound is the error of an action that carries no sre_zero parse.
const ErrUnbound = "Action must be parsed by the sre_zero grammar."

// CodeOf classifies one of the reference's parse error messages.
func CodeOf(msg string) Code {
	switch {
	case msg == "":
		return OK
	case strings.HasPrefix(msg, "Unknown action: "):
		return UnknownAction
	case msg == "resolve_incident requires root_cause and fix." || msg == "escalate requires a reason.":
		return EmptyText
	case strings.HasSuffix(msg, " argument.") || strings.HasSuffix(msg, " arguments.") ||
		strings.HasSuffix(msg, " requires a service.") || msg == "update_config requires key and value.":
		return Arity
	}
	return Syntax
}

// Check validates a parsed action as the reference does after parsing
// (spec §4.1 step 6, §4.4 step 3): it returns the action type and service
// indices, or an error code and message. A nil or hand-built action never
// panics; it fails like a parse error.
func (t *Task) Check(a *Action) (typ, svc int, code Code, msg string) {
	if a == nil {
		return -1, -1, Syntax, ErrUnbound
	}
	if a.Err != "" {
		return -1, -1, CodeOf(a.Err), a.Err
	}
	typ = ActionIndex(a.Type)
	switch {
	case typ < 0:
		return -1, -1, UnknownAction, "Unknown action: " + a.Type
	case typ == UpdateConfig && a.Value.K == value.Null:
		return -1, -1, Arity, "update_config requires key and value."
	case typ == ResolveIncident && (a.RootCause == "" || a.Fix == ""):
		return -1, -1, EmptyText, "resolve_incident requires root_cause and fix."
	case typ == Escalate && a.Reason == "":
		return -1, -1, EmptyText, "escalate requires a reason."
	}
	svc = -1
	if ServiceAction(typ) {
		if svc = t.ServiceIndex(a.Service); svc < 0 {
			return typ, -1, UnknownService, a.Service
		}
	}
	return typ, svc, OK, ""
}

// ServiceIndex is the index of the service called name, or -1.
func (t *Task) ServiceIndex(name string) int {
	for i := range t.Services {
		if t.Services[i].Name == name {
			return i
		}
	}
	return -1
}
