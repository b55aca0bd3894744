package value

import (
	"math"
	"testing"
)

// The expected strings are CPython 3's own output for each input.
func TestPyFloatRepr(t *testing.T) {
	for f, want := range map[float64]string{
		0: "0.0", 1: "1.0", 100: "100.0", 1.5: "1.5", 0.1: "0.1", 0.03: "0.03",
		0.0001: "0.0001", 0.00001: "1e-05", 0.000123: "0.000123", 1.23e-7: "1.23e-07",
		1e15: "1000000000000000.0", 1e16: "1e+16", 1.5e16: "1.5e+16", 123456789.123: "123456789.123",
		1e22: "1e+22", 1.7976931348623157e308: "1.7976931348623157e+308", 5e-324: "5e-324",
		-2.5: "-2.5", 0.6666666666666666: "0.6666666666666666", 1000.0: "1000.0",
		math.Inf(1): "inf", math.Inf(-1): "-inf",
	} {
		if got := PyFloatRepr(f); got != want {
			t.Errorf("repr(%v) = %q, want %q", f, got, want)
		}
	}
	if got := PyFloatRepr(math.Copysign(0, -1)); got != "-0.0" {
		t.Errorf("repr(-0.0) = %q", got)
	}
	if got := PyFloatRepr(math.NaN()); got != "nan" {
		t.Errorf("repr(nan) = %q", got)
	}
}

func TestParsePyNumbers(t *testing.T) {
	ints := map[string]any{"100": int64(100), " -5 ": int64(-5), "+7": int64(7), "1_000": int64(1000),
		"1__0": nil, "_1": nil, "1_": nil, "1e3": nil, "1.0": nil, "": nil, "abc": nil, "0x10": nil}
	for s, want := range ints {
		got, ok := ParsePyInt(s)
		if want == nil && ok || want != nil && (!ok || got != want.(int64)) {
			t.Errorf("int(%q) = %v, %v; want %v", s, got, ok, want)
		}
	}
	floats := map[string]any{"1e3": 1000.0, "1.5": 1.5, ".5": 0.5, "5.": 5.0, " 2 ": 2.0, "1_000.5": 1000.5,
		"-inf": math.Inf(-1), "Infinity": math.Inf(1), "+INF": math.Inf(1), "1e400": math.Inf(1),
		"abc": nil, "": nil, ".": nil, "e3": nil, "1e": nil, "1_e3": nil, "0x1p3": nil, "infin": nil, "/healthz": nil}
	for s, want := range floats {
		got, ok := ParsePyFloat(s)
		if want == nil && ok || want != nil && (!ok || got != want.(float64)) {
			t.Errorf("float(%q) = %v, %v; want %v", s, got, ok, want)
		}
	}
	if f, ok := ParsePyFloat("nan"); !ok || !math.IsNaN(f) {
		t.Errorf("float(nan) = %v, %v", f, ok)
	}
}

func TestPyEqual(t *testing.T) {
	eq := [][2]Value{{OfInt(1), OfBool(true)}, {OfInt(0), OfBool(false)}, {OfFloat(50), OfInt(50)},
		{OfString("a"), OfString("a")}, {{}, {}}, {OfFloat(1), OfBool(true)}}
	ne := [][2]Value{{OfString("50"), OfInt(50)}, {OfString("true"), OfBool(true)}, {OfFloat(math.NaN()), OfFloat(math.NaN())},
		{OfInt(2), OfBool(true)}, {{}, OfInt(0)}, {OfString(""), {}}}
	for _, p := range eq {
		if !PyEqual(p[0], p[1]) || !PyEqual(p[1], p[0]) {
			t.Errorf("%v == %v should hold", p[0], p[1])
		}
	}
	for _, p := range ne {
		if PyEqual(p[0], p[1]) || PyEqual(p[1], p[0]) {
			t.Errorf("%v == %v should not hold", p[0], p[1])
		}
	}
	if PyStr(OfBool(true)) != "True" || PyStr(OfFloat(1000)) != "1000.0" || PyStr(OfInt(-3)) != "-3" || PyStr(Value{}) != "None" {
		t.Error("PyStr")
	}
}
