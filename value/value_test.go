package value_test

import (
	"math"
	"testing"

	"github.com/srezc/srezc/value"
)

func TestNativeEqualityKeepsKindsApart(t *testing.T) {
	cases := []struct {
		a, b value.Value
		want bool
	}{
		{value.OfInt(0), value.OfFloat(0), false},
		{value.OfInt(1), value.OfBool(true), false},
		{value.OfInt(50), value.OfString("50"), false},
		{value.OfInt(50), value.OfInt(50), true},
		{value.OfFloat(math.NaN()), value.OfFloat(math.NaN()), true},
		{value.OfString("/healthz"), value.OfString("/healthz"), true},
	}
	for _, c := range cases {
		if got := c.a.Equal(c.b); got != c.want {
			t.Errorf("%#v == %#v: got %v, want %v", c.a, c.b, got, c.want)
		}
	}
}

func TestTextFormKeepsFloatsFloats(t *testing.T) {
	cases := map[string]value.Value{
		"50":    value.OfInt(50),
		"50.0":  value.OfFloat(50),
		"0.25":  value.OfFloat(0.25),
		"1e+21": value.OfFloat(1e21),
		"true":  value.OfBool(true),
		"nan":   value.OfFloat(math.NaN()),
	}
	for want, v := range cases {
		if got := v.String(); got != want {
			t.Errorf("%#v: got %q, want %q", v, got, want)
		}
	}
}

func TestJSONString(t *testing.T) {
	got := string(value.AppendJSONString(nil, "a\"b\\c\n<\x01"))
	want := `"a\"b\\c\n\u003c\u0001"`
	if got != want {
		t.Errorf("got %s, want %s", got, want)
	}
}
