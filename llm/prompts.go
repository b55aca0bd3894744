package llm

import (
	"fmt"
	"strings"

	"github.com/srezc/srezc/agents"
)

// PromptVersion identifies the system prompts and the way observations are
// put to the model (the intro, then each observation as the runtime
// renders it, whose own version is recorded beside). Change it whenever a
// prompt's wording or the conversation's shape changes: records and
// --resume key on it.
const PromptVersion = "2"

const briefing = `You are the on-call site reliability engineer for a production system that is having an incident. You act only through the tools listed in the first message; each turn you make exactly one tool call, and then you see what it returned.

Work like a careful engineer: gather evidence before you change anything, change as little as possible, and change only what the evidence shows is at fault. Restarting a healthy service, or changing a setting that was not at fault, counts against you. You have a limited number of steps.

When the system is healthy again, call resolve_incident. In root_cause give one cause per faulty service: the service, then what is wrong with it, in your own words ("SERVICE: what is wrong"); separate several causes with ";". You may explain: a service you mention only as affected is not blamed, but every service you state as a cause is. In fix, say what you changed. If the cause is outside your reach, or you cannot resolve the incident, call escalate with the cause as you understand it.`

const grammar = `A call is the tool's name and its arguments in parentheses, separated by commas:
  inspect_logs(SERVICE)
  inspect_config(SERVICE, KEY)
  update_config(SERVICE, KEY, 30)
  resolve_incident("SERVICE: what is wrong with it", "what you changed")
Put double quotes around an argument that contains a comma, a parenthesis or a quote.`

// SystemPrompt is the system prompt of an agent style.
func SystemPrompt(style string) string {
	switch style {
	case ReAct:
		return briefing + "\n\n" + grammar + `

Answer in exactly this form, and nothing else:
Thought: <brief reasoning>
Action: <one call>`
	case Tools:
		return briefing + "\n\nCall exactly one of the provided functions in every answer."
	}
	return briefing + "\n\n" + grammar + `

Answer with exactly one call and nothing else: no explanation, no Markdown, no code fences.`
}

// FirstInstruction follows the intro in the first user message.
func FirstInstruction(style string) string {
	switch style {
	case ReAct:
		return "Respond with one brief Thought and one Action."
	case Tools:
		return "Call one tool."
	}
	return "Choose the first action."
}

// Tool is an OpenAI tool definition.
type Tool struct {
	Type     string      `json:"type"`
	Function FunctionDef `json:"function"`
}

// FunctionDef is a function's name, documentation and JSON Schema.
type FunctionDef struct {
	Name        string `json:"name"`
	Description string `json:"description"`
	Parameters  Schema `json:"parameters"`
}

// Schema is the subset of JSON Schema a tool's parameters need.
type Schema struct {
	Type        any               `json:"type,omitempty"`
	Description string            `json:"description,omitempty"`
	Enum        []string          `json:"enum,omitempty"`
	Pattern     string            `json:"pattern,omitempty"`
	Properties  map[string]Schema `json:"properties,omitempty"`
	Required    []string          `json:"required,omitempty"`
	// AdditionalProperties is false for an object: a model that invents an
	// argument is told so by a strict provider.
	AdditionalProperties *bool `json:"additionalProperties,omitempty"`
	// AnyOf and Items give root_cause its two forms: text, or a list of
	// causes.
	AnyOf []Schema `json:"anyOf,omitempty"`
	Items *Schema  `json:"items,omitempty"`
}

// causesSchema is root_cause's structured form: one cause per faulty
// service, graded cause by cause with the service fixed (a cause's
// explanation is never read as blame).
func causesSchema(services []string) Schema {
	f := false
	svc := Schema{Type: "string", Description: "The faulty service."}
	if len(services) > 0 {
		svc.Enum = services
	}
	return Schema{
		Type:        "array",
		Description: "One cause per faulty service.",
		Items: &Schema{Type: "object", AdditionalProperties: &f, Required: []string{"service", "what"}, Properties: map[string]Schema{
			"service":     svc,
			"what":        {Type: "string", Description: "What is wrong with the service, in your own words."},
			"explanation": {Type: "string", Description: "Optional: how it led to what was observed; services named here are not blamed."},
		}},
	}
}

var argDoc = map[string]string{
	"service":    "A service of the system, as the first message lists them.",
	"config_key": "A configuration key of the service.",
	"value":      "The new value: a number, true or false, or text.",
	"text":       "Free text.",
	"identifier": "A name as the system prints it (a table, a column, an instance, a replication slot): letters, digits, _ . -, up to 63 characters.",
	"ip_address": "A client's IPv4 address as access logs print it, like 192.0.2.7.",
}

// argPattern is the JSON-schema pattern of an argument type the runtime
// checks the form of (engine.Task.Bind).
var argPattern = map[string]string{
	"identifier": `^[A-Za-z_][A-Za-z0-9_.-]{0,62}$`,
	"ip_address": `^(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])(\.(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])){3}$`,
}

// Schemas turns the tools' specifications into OpenAI tool definitions.
// With services given (an episode's, from its intro), a service argument
// is an enum of them. encoding/json writes map keys sorted, so the output
// is stable.
func Schemas(specs []agents.ToolSpec, services []string) []Tool {
	f := false
	out := make([]Tool, 0, len(specs))
	for _, s := range specs {
		params := Schema{Type: "object", Properties: map[string]Schema{}, Required: []string{}, AdditionalProperties: &f}
		for _, a := range s.Args {
			p := Schema{Type: "string", Description: argDoc[a.Type], Pattern: argPattern[a.Type]}
			switch a.Type {
			case "service":
				if len(services) > 0 {
					p.Enum = services
				}
			case "value":
				p.Type = []string{"number", "boolean", "string"}
				p.Description = valueDoc(a.Keys)
			}
			if a.Name == "root_cause" {
				text := p
				text.Description = "One cause per faulty service: \"SERVICE: what is wrong\", several separated by \";\"."
				p = Schema{AnyOf: []Schema{text, causesSchema(services)}}
			}
			params.Properties[a.Name] = p
			if !a.Optional {
				params.Required = append(params.Required, a.Name)
			}
		}
		out = append(out, Tool{Type: "function", Function: FunctionDef{Name: s.Name, Description: strings.TrimSpace(s.Description), Parameters: params}})
	}
	return out
}

// valueDoc says exactly what a value argument accepts, per key type (see
// agents.CallText): a JSON schema cannot tie one property's type to
// another's value in a form every provider and MCP client reads, so the
// type list admits all three and the description names each key's type.
func valueDoc(keys []agents.KeyType) string {
	if len(keys) == 0 {
		return argDoc["value"]
	}
	byType := map[string][]string{}
	for _, k := range keys {
		byType[k.Type] = append(byType[k.Type], k.Key)
	}
	var b strings.Builder
	b.WriteString("The new value, of the key's type.")
	for _, t := range []struct{ typ, what string }{
		{"int", "An integer (a number without a fraction, or a string holding one, such as \"60\")"},
		{"float", "A decimal number (any number, or a string holding one)"},
		{"bool", "true or false (or the strings \"true\", \"false\")"},
		{"string", "Text"},
	} {
		if ks := byType[t.typ]; len(ks) > 0 {
			fmt.Fprintf(&b, " %s for %s.", t.what, strings.Join(ks, ", "))
		}
	}
	b.WriteString(" Any other value is an invalid action.")
	return b.String()
}
