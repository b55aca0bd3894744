package serve

import (
	"strconv"

	"github.com/srezc/srezc/value"
)

// appendJSON writes the agent's side of a reply the way encoding/json
// would (same fields, same order), without reflection and without
// re-validating the rendered content: this is the hot path of a step.
func (r *Reply) appendJSON(b []byte) []byte {
	b = append(b, `{"episode":`...)
	b = value.AppendJSONString(b, r.Episode)
	b = append(b, `,"step":`...)
	b = strconv.AppendInt(b, int64(r.Step), 10)
	b = append(b, `,"steps_left":`...)
	b = strconv.AppendInt(b, int64(r.StepsLeft), 10)
	b = append(b, `,"done":`...)
	b = strconv.AppendBool(b, r.Done)
	if r.Intro != "" {
		b = append(b, `,"intro":`...)
		b = value.AppendJSONString(b, r.Intro)
	}
	b = append(b, `,"observation":`...)
	b = value.AppendJSONString(b, r.Observation)
	if len(r.Content) > 0 {
		b = append(b, `,"content":`...)
		b = append(b, r.Content...)
	}
	if r.Token != "" {
		b = append(b, `,"token":`...)
		b = value.AppendJSONString(b, r.Token)
	}
	return append(b, '}')
}
