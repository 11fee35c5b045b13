// Command crdx-go-vectors prints, as JSON, what Go itself answers for the behaviours that
// src/go/ reimplements. The tests under test/go/ read its output (test/go/go-vectors.json).
//
// Re-record (Go 1.26, stdlib only):
//
//	cd test/go/vectors && go run . > ../go-vectors.json
package main

import (
	"bytes"
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"net/netip"
	"os"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"time"
	"unicode"
)

type quoteCase struct {
	// In is the input as JSON text: Go decodes it as the server decodes a JSON string
	// (a lone surrogate escape reads as U+FFFD).
	In  string `json:"in"`
	Out string `json:"out"`
}

type floatCase struct {
	Bits string  `json:"bits"` // the float64, as hex of its IEEE 754 bits
	F    string  `json:"f"`    // strconv.FormatFloat(x, 'f', -1, 64)
	G    string  `json:"g"`    // strconv.FormatFloat(x, 'g', -1, 64)
	G32  string  `json:"g32"`  // strconv.FormatFloat(float64(float32(x)), 'g', -1, 32)
	V    string  `json:"v"`    // fmt.Sprintf("%v", x)
	JSON *string `json:"json"` // json.Marshal(x); null when it fails (NaN, ±Inf)
}

type valueCase struct {
	// In is a JSON text, decoded as the API server decodes a request body: an integer literal
	// that fits int64 is an int64, any other number a float64.
	In   string `json:"in"`
	V    string `json:"v"`    // %v
	T    string `json:"t"`    // %T
	JSON string `json:"json"` // json.Marshal
	// Indent is json.MarshalIndent(v, "", "    "), as kubectl -o json prints.
	Indent string `json:"indent"`
}

type equalCase struct {
	A     string `json:"a"`
	B     string `json:"b"`
	Equal bool   `json:"equal"` // reflect.DeepEqual of the decoded values
}

type timeCase struct {
	In    string `json:"in"`
	Sec   int64  `json:"sec,omitempty"`
	Nsec  int    `json:"nsec,omitempty"`
	Error string `json:"error,omitempty"`
	// Formatted is t.UTC().Format(time.RFC3339) (metav1.Time's JSON) of the parsed time.
	Formatted string `json:"formatted,omitempty"`
}

type durationCase struct {
	In    string `json:"in"`
	Ns    string `json:"ns,omitempty"` // decimal nanoseconds
	Error bool   `json:"error,omitempty"`
}

type output struct {
	Go        string         `json:"go"`
	Quote     []quoteCase    `json:"quote"`
	Printable [][2]int       `json:"printable"` // strconv.IsPrint: the inclusive ranges of printable runes
	Float     []floatCase    `json:"float"`
	Value     []valueCase    `json:"value"`
	Equal     []equalCase    `json:"equal"`
	Time      []timeCase     `json:"time"`
	Duration  []durationCase `json:"duration"`
	ToLower   []quoteCase    `json:"toLower"`
	Addr      []netipCase    `json:"addr"`
	Prefix    []netipCase    `json:"prefix"`
	Base64    []netipCase    `json:"base64"`
	Base64URL []netipCase    `json:"base64url"`
	Strconv   []strconvCase  `json:"strconv"`
	Regexp    []regexpCase   `json:"regexp"`
}

// regexpCase: regexp.Compile(In): Error is the error's text; else Find is FindString(Sample)
// (-1 when it does not match).
type regexpCase struct {
	In     string `json:"in"`
	Error  string `json:"error,omitempty"`
	Sample string `json:"sample,omitempty"`
	Find   string `json:"find,omitempty"`
}

// strconvCase: strconv.ParseInt(In, 10, 64), ParseUint(In, 10, 64), ParseFloat(In, 64) (the
// float64's bits in hex) and ParseBool(In), each omitted when it fails (cel-go's string
// conversions: a failure is "type conversion error").
type strconvCase struct {
	In    string  `json:"in"`
	Int   *string `json:"int,omitempty"`
	Uint  *string `json:"uint,omitempty"`
	Float *string `json:"float,omitempty"`
	Bool  *bool   `json:"bool,omitempty"`
}

// netipCase: netip.ParseAddr / ParsePrefix of In: Out is String() (and Masked, for a prefix),
// or Error the error's text.
type netipCase struct {
	In     string `json:"in"`
	Out    string `json:"out,omitempty"`
	Masked string `json:"masked,omitempty"`
	Error  string `json:"error,omitempty"`
}

func decode(text string) interface{} {
	d := json.NewDecoder(strings.NewReader(text))
	d.UseNumber()
	var v interface{}
	if err := d.Decode(&v); err != nil {
		panic(fmt.Sprintf("%s: %v", text, err))
	}
	return numbers(v)
}

func numbers(v interface{}) interface{} {
	switch t := v.(type) {
	case json.Number:
		if i, err := strconv.ParseInt(string(t), 10, 64); err == nil {
			return i
		}
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil {
			panic(err)
		}
		return f
	case []interface{}:
		for i := range t {
			t[i] = numbers(t[i])
		}
	case map[string]interface{}:
		for k := range t {
			t[k] = numbers(t[k])
		}
	}
	return v
}

func marshal(v interface{}) string {
	b, err := json.Marshal(v)
	if err != nil {
		panic(err)
	}
	return string(b)
}

func main() {
	out := output{Go: "go1.26"}

	for _, in := range []string{
		``, `a`, `hello world`, `\"quoted\"`, `back\\slash`, `tab\there`, `new\nline`, `cr\r`, `\u0000`, `\u0007\b\f\u000b`,
		`\u001f`, `\u007f`, `\u0080`, `\u009f`, `\u00a0`, `\u00ad`, `é`, `ü`, `日本語`, `😀`, `\ud83d\ude00`,
		`\u200b`, `\u200c`, `\u200d`, `\u2028`, `\u2029`, `\ufeff`, `\ufffd`, `\ufffe`, `\uffff`, `\ud800`, `\udc00`,
		`x\ud800y`, `\udbff\udfff`, `\U0001F600`, `\u0301`, `e\u0301`, `\u3000`, `\u2000`, `\u0085`, `\u061c`,
		`\u180e`, `\u2060`, `\u2066`, `\ue000`, `<>&`, `'`, `` + "`" + ``, `\u0378`, `\u1680`, `\u205f`,
	} {
		var s string
		if err := json.Unmarshal([]byte(`"`+strings.ReplaceAll(in, `\U0001F600`, `😀`)+`"`), &s); err != nil {
			panic(in + ": " + err.Error())
		}
		out.Quote = append(out.Quote, quoteCase{In: `"` + strings.ReplaceAll(in, `\U0001F600`, `😀`) + `"`, Out: strconv.Quote(s)})
	}

	start := -1
	for r := 0; r <= unicode.MaxRune+1; r++ {
		p := r <= unicode.MaxRune && strconv.IsPrint(rune(r))
		if p && start < 0 {
			start = r
		} else if !p && start >= 0 {
			out.Printable = append(out.Printable, [2]int{start, r - 1})
			start = -1
		}
	}

	floats := []float64{
		0, math.Copysign(0, -1), 1, -1, 0.1, 0.2, 0.3, 1.5, -1.5, 2.5, 100, 123456, 999999, 1e6, 1234567, 1.5e6, 1e7,
		1e20, 1e21, 1.5e21, 1e22, 1e100, 1e300, math.MaxFloat64, math.SmallestNonzeroFloat64, 5e-324, 2.2250738585072014e-308,
		1e-4, 1.5e-4, 1e-5, 1e-6, 1.5e-6, 1e-7, 1.234e-7, 1e-300, 0.000123, 3.14159, math.Pi, math.E, 1.0 / 3, 2.0 / 3,
		9007199254740991, 9007199254740992, 9007199254740993, 9223372036854775807, 9223372036854775808, -9223372036854775808,
		1.8446744073709552e19, 16777216, 16777217, 3.4028234663852886e38, 3.5e38, 1e-45, 1.401298464324817e-45, 1e-46,
		0.1 + 0.2, 100.5, 1e15, 1e16, 123456789012345680, 4.35, 0.0001, 12345.6789, 3.4e38, 1.17549435e-38, 255.255,
		math.Inf(1), math.Inf(-1), math.NaN(), 2.5e-5, 65504, 33554432.5, 0.5, 1e-10, 7e22, 8.589973e9,
	}
	for _, x := range floats {
		c := floatCase{
			Bits: fmt.Sprintf("%016x", math.Float64bits(x)),
			F:    strconv.FormatFloat(x, 'f', -1, 64),
			G:    strconv.FormatFloat(x, 'g', -1, 64),
			G32:  strconv.FormatFloat(float64(float32(x)), 'g', -1, 32),
			V:    fmt.Sprintf("%v", x),
		}
		if b, err := json.Marshal(x); err == nil {
			s := string(b)
			c.JSON = &s
		}
		out.Float = append(out.Float, c)
	}

	for _, in := range []string{
		`null`, `true`, `false`, `0`, `-1`, `42`, `1.5`, `-0.25`, `1e21`, `1.5e-7`, `1234567.5`, `0.000001`, `1e-7`,
		`9007199254740993`, `9223372036854775807`, `-9223372036854775808`, `9223372036854775808`,
		`""`, `"a b"`, `"<&>"`, `"\u2028"`, `"\ud800"`, `"é"`, `"\u0000"`, `"a\bb\fc\u0001"`,
		`[]`, `[1,"a",null,true]`, `[[1],[2,[3]]]`, `{}`, `{"b":1,"a":2}`, `{"a":{"z":[1,2],"y":null}}`, `{"k":"v w"}`,
		`{"10":1,"9":2,"a":3,"B":4,"é":5,"\ud83d\ude00":6,"\uffff":7}`, `[{"a":1.5},2.5]`, `{"x":1e300}`,
	} {
		v := decode(in)
		ind, err := json.MarshalIndent(v, "", "    ")
		if err != nil {
			panic(err)
		}
		out.Value = append(out.Value, valueCase{In: in, V: fmt.Sprintf("%v", v), T: fmt.Sprintf("%T", v), JSON: marshal(v), Indent: string(ind)})
	}

	for _, p := range [][2]string{
		{`null`, `null`}, {`null`, `[]`}, {`null`, `{}`}, {`[]`, `{}`}, {`[]`, `[]`}, {`{}`, `{}`}, {`null`, `""`}, {`null`, `0`},
		{`0`, `false`}, {`""`, `[]`}, {`1`, `1`}, {`1`, `2`}, {`1`, `1.5`}, {`1.5`, `1.5`}, {`1`, `"1"`}, {`true`, `true`},
		{`{"a":1,"b":2}`, `{"b":2,"a":1}`}, {`{"a":1}`, `{"a":1,"b":null}`}, {`{"a":null}`, `{"b":null}`},
		{`[1,2]`, `[2,1]`}, {`[1,[2]]`, `[1,[2]]`}, {`{"a":[]}`, `{"a":null}`}, {`{"a":{}}`, `{"a":[]}`},
		{`9223372036854775807`, `9223372036854775807`}, {`9223372036854775807`, `9223372036854775806`},
		{`{"__proto__":1}`, `{"__proto__":1}`}, {`{"__proto__":1}`, `{}`}, {`{"__proto__":{"a":1}}`, `{"__proto__":{"a":2}}`},
		{`"\ud800"`, `"\ufffd"`},
	} {
		out.Equal = append(out.Equal, equalCase{A: p[0], B: p[1], Equal: reflect.DeepEqual(decode(p[0]), decode(p[1]))})
	}

	for _, in := range []string{
		`2020-01-01T00:00:00Z`, `2020-01-01T00:00:00z`, `2020-01-01T00:00:00.5Z`, `2020-01-01T00:00:00.123456789Z`,
		`2020-01-01T00:00:00.1234567891Z`, `2020-01-01T00:00:00,5Z`, `2020-01-01T00:00:00+01:00`, `2020-01-01T00:00:00-07:30`,
		`2020-01-01T1:00:00Z`, `2020-13-01T00:00:00Z`, `2020-02-30T00:00:00Z`, `2020-02-29T00:00:00Z`, `2019-02-29T00:00:00Z`,
		`0001-01-01T00:00:00Z`, `9999-12-31T23:59:59Z`, `1969-12-31T23:59:59.999Z`, `1970-01-01T00:00:00+24:00`,
		`1970-01-01T00:00:00+23:59`, `2020-01-01T24:00:00Z`, `2020-01-01T23:60:00Z`, `2020-01-01T23:59:60Z`, `2020-01-01`,
		`2020-01-01T00:00:00`, `2020-01-01 00:00:00Z`, `é2020`, ``, `2020-01-01T00:00:00ZZ`, `2020-01-01T00:00:00.Z`,
		`2020-01-01T00:00:00+0100`, `20200-01-01T00:00:00Z`, `2020-1-01T00:00:00Z`, `1970-01-01T00:00:00.000000001-00:01`,
	} {
		c := timeCase{In: in}
		t, err := time.Parse(time.RFC3339, in)
		if err != nil {
			c.Error = err.Error()
		} else {
			c.Sec, c.Nsec = t.Unix(), t.Nanosecond()
			c.Formatted = t.UTC().Format(time.RFC3339)
		}
		out.Time = append(out.Time, c)
	}

	for _, in := range []string{
		``, `0`, `-0`, `+0`, `1s`, `1.5s`, `.5s`, `5.s`, `.s`, `1h2m3s`, `1h2m3.5s`, `100ms`, `1us`, `1µs`, `1μs`, `1ns`,
		`-1s`, `+1s`, `1`, `s`, `1x`, `1m1`, `2562047h47m16.854775807s`, `2562047h47m16.854775808s`, `-2562047h47m16.854775808s`,
		`9223372036854775807ns`, `9223372036854775808ns`, `0.000000001s`, `0.0000000001s`, `1.00000000000000000001s`,
		`1 s`, `1S`, `1H`, `10d`, `3m0.5s`, `0.1h`, `1e3s`, `--1s`,
	} {
		c := durationCase{In: in}
		if d, err := time.ParseDuration(in); err != nil {
			c.Error = true
		} else {
			c.Ns = strconv.FormatInt(int64(d), 10)
		}
		out.Duration = append(out.Duration, c)
	}

	for _, in := range []string{`ABC`, `Ünïcödé`, `İ`, `ΣΑΣ`, `ǅ`, `ẞ`, `K`, `Å`, `ﬀ`, `𐐀`, `mixed Case 123`} {
		out.ToLower = append(out.ToLower, quoteCase{In: in, Out: strings.ToLower(in)})
	}

	for _, in := range []string{"", "1.2.3.4", "1.2.3", "1.2.3.4.5", "01.2.3.4", "1.2.3.256", "1..2.3", "1.2.3.", "1.2.3.x", "%eth0", "abc",
		"::", "::1", "1::2::3", "1:2:3:4:5:6:7:8", "1:2:3:4:5:6:7:8:9", "1:2:3:4:5:6:7", "12345::", "fffff::", "fe80::1%", "fe80::1%eth0",
		"::ffff:1.2.3.4", "1:2:3:4:5:6:1.2.3.4", "1:2:3:4:5:6:7:1.2.3.4", "1.2.3.4:", "::1.2.3", "1:", "1::2:", "é", ":1", "1:2:3:4:5:6:7::",
		"2001:DB8::1", "0:0:0:0:0:0:0:1", "1:0:0:2:0:0:0:3", "::ffff:0:1.2.3.4", "1:2:3:4:1.2.3.4", "::1.2.3.4", "1:2::3:4:5:6:7:8", "1:2x::"} {
		if a, err := netip.ParseAddr(in); err != nil {
			out.Addr = append(out.Addr, netipCase{In: in, Error: err.Error()})
		} else {
			out.Addr = append(out.Addr, netipCase{In: in, Out: a.String()})
		}
	}
	for _, in := range []string{"10.0.0.0/8", "10.0.0.0", "10.0.0.0/33", "10.0.0.0/08", "10.0.0.0/+8", "10.0.0.0/", "10.0/8", "fe80::1%eth0/64",
		"::/0", "::/129", "2001:db8::1/32", "10.0.0.1/99999999999999999999", "1.2.3.4/-1", "10.1.2.3/12", "2001:db8:ffff::1/33", "1.2.3.4/0", "::ffff:1.2.3.4/100"} {
		if p, err := netip.ParsePrefix(in); err != nil {
			out.Prefix = append(out.Prefix, netipCase{In: in, Error: err.Error()})
		} else {
			out.Prefix = append(out.Prefix, netipCase{In: in, Out: p.String(), Masked: p.Masked().String()})
		}
	}

	// base64.StdEncoding.Decode (encoding/json's []byte): Error is the CorruptInputError's text
	for _, in := range []string{"", "YQ==", "YWI=", "YWJj", "YQ", "Y", "YQ=", "YQ===", "YWJj\nZGVm", "YW Jj", "YWJj=", "=", "YQ==YQ==", "YQ==\n",
		"YQ==\nx", "YWJjZGVmZ2hp!", "YWJjZGVmZ2hpamtsbW5vcA==", "é", "YWJjZ\r\nGVm", "YW=j", "YWI=\r\n", "YWJ", "YWJjZA", "-_", "YQ=\n=", "YQ=\nx", "YR==", "\n\n"} {
		b := make([]byte, base64.StdEncoding.DecodedLen(len(in)))
		if _, err := base64.StdEncoding.Decode(b, []byte(in)); err != nil {
			out.Base64 = append(out.Base64, netipCase{In: in, Error: err.Error()})
		} else {
			out.Base64 = append(out.Base64, netipCase{In: in})
		}
	}

	// base64.URLEncoding.Decode (kube-openapi strfmt.Base64.UnmarshalText: CEL's format: byte):
	// Out is the decoded bytes in hex
	for _, in := range []string{"", "YWJj", "/w==", "_w==", "-_8=", "YW+j", "YQ", "YQ==", "YWJj\nZGVm", "+++/", "__8=", "a+b/", "YWJ", "YR==", "YQ==\n"} {
		b := make([]byte, base64.URLEncoding.DecodedLen(len(in)))
		if n, err := base64.URLEncoding.Decode(b, []byte(in)); err != nil {
			out.Base64URL = append(out.Base64URL, netipCase{In: in, Error: err.Error()})
		} else {
			out.Base64URL = append(out.Base64URL, netipCase{In: in, Out: fmt.Sprintf("%x", b[:n])})
		}
	}

	for _, in := range []string{"", " ", "0", "-0", "+0", "1", "+1", "-1", "007", "-007", "1_000", "0x1f", "0X1F", "0b101", "0B101", "0o17", "0O17", "017",
		"9223372036854775807", "9223372036854775808", "-9223372036854775808", "-9223372036854775809", "18446744073709551615", "18446744073709551616",
		"000000000000000000000000000005", "-000000000000000000000000000005", " 1", "1 ", "1\n", "\t1", "١", "1.0", "1e3", ".5", "5.", "-.5", "+.5e-2",
		"1e308", "1.7976931348623157e308", "1.8e308", "-1e400", "1e-400", "4.9e-324", "2e-324", "0x1p-2", "0x1.8p1", "0x10", "0X1P+2", "0x_1p0", "1_0.5",
		"inf", "+inf", "-inf", "Inf", "INF", "infinity", "+Infinity", "-INFINITY", "infinit", "nan", "NaN", "NAN", "+nan", "-nan",
		"t", "T", "true", "TRUE", "True", "tRUE", "yes", "f", "F", "false", "FALSE", "False", "fALSE", "no", "2", "+", "-", "e5", "1e", "1e+", "0.", "-0.0", "00.5", "1__0", "_1",
		"0x1p-1074", "0x1p-1075", "0x1.8p-1075", "0x1.0000001p-1075", "0x1p1023", "0x1p1024", "0x1.fffffffffffff8p1023", "0x1.fffffffffffffp1023",
		"0x1.00000000000008p0", "0x1.00000000000018p0", "0x1.000000000000081p0", "0x.8p1", "0x1.p0", "0xABCDEFp-20", "0x1p-1022", "0x0.fffffffffffffp-1022",
		"0x0.fffffffffffff8p-1022", "1e-323", "-0x1p-2", "0x1p", "0x1pp", "0x1_0p0", "0x_p0", "1e_5", "1_e5", "1.5_", "0_1", "1e1_0", "0x1p1_0",
		"123456789012345678901234567890", "0.1e-400", "1e-10000", "0x1p-99999", "0x1p99999", "-0x0p0", "+0x1p0"} {
		c := strconvCase{In: in}
		if n, err := strconv.ParseInt(in, 10, 64); err == nil {
			v := strconv.FormatInt(n, 10)
			c.Int = &v
		}
		if n, err := strconv.ParseUint(in, 10, 64); err == nil {
			v := strconv.FormatUint(n, 10)
			c.Uint = &v
		}
		if f, err := strconv.ParseFloat(in, 64); err == nil {
			v := fmt.Sprintf("%016x", math.Float64bits(f))
			c.Float = &v
		}
		if b, err := strconv.ParseBool(in); err == nil {
			c.Bool = &b
		}
		out.Strconv = append(out.Strconv, c)
	}

	for _, c := range [][2]string{
		{"(", ""}, {"[", ""}, {"a**", ""}, {`\`, ""}, {`a\`, ""}, {"x{2,1}", ""}, {"(?P<n>a)(?P<n>b)", "xab"}, {"(?<n>a)|(?P<n>b)", "b"},
		{`(?P<n>a)(?P<n>b`, ""}, {`[(?P<n>]`, "<"}, {`\(?P<n>a)\(?P<n>b)`, "(a(b"}, {`\8`, ""}, {"[z-a]", ""}, {"(?i", ""}, {"a{1001}", ""},
		{`\pX`, ""}, {"*", ""}, {"[[:foo:]]", ""}, {"a{2}{3}", ""}, {"(a)|b)", ""}, {`\C`, ""}, {"x**", ""}, {`\z`, "a"}, {`\Q*\E`, "a*"},
		{"^[a-z]([-a-z0-9]*[a-z0-9])?$", "abc-1"}, {"(?!kube-).*", ""}, {`a{,3}`, "a{,3}"}, {`\p{Greek}+`, "xαβ"}, {"[[:word:]]+", "-ab_1-"},
	} {
		rc := regexpCase{In: c[0]}
		if re, err := regexp.Compile(c[0]); err != nil {
			rc.Error = err.Error()
		} else {
			rc.Sample = c[1]
			if loc := re.FindStringIndex(c[1]); loc == nil {
				rc.Find = "-1"
			} else {
				rc.Find = c[1][loc[0]:loc[1]]
			}
		}
		out.Regexp = append(out.Regexp, rc)
	}

	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", " ")
	if err := enc.Encode(out); err != nil {
		panic(err)
	}
	os.Stdout.Write(buf.Bytes())
}
