package inputs

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"

	"certsym/spec"
	"certsym/spec/integer"
	"certsym/spec/syntax"
)

// Parse reads an input written as x=3,y=-2,a=[5,0,7] for prog: a value for each variable named,
// the list of its elements from lo to hi for each array named (syntax.Program.SetInput), 0 for
// the slots not given. Text that starts with '{' is read as a JSON object (FromJSON), so the
// input of a JSON report can be given as it is. It returns the store (of length prog.Slots())
// and the names given.
func Parse(text string, prog *syntax.Program) (spec.Store, map[string]bool, error) {
	rest := strings.TrimSpace(text)
	if strings.HasPrefix(rest, "{") {
		return FromJSON([]byte(rest), prog)
	}
	store := make(spec.Store, prog.Slots())
	given := map[string]bool{}
	for rest != "" {
		// One item: NAME=INTEGER or NAME=[INTEGER, ...], up to the next top-level comma.
		end := strings.IndexByte(rest, ',')
		if lb := strings.IndexByte(rest, '['); lb >= 0 && (end < 0 || lb < end) {
			rb := strings.IndexByte(rest, ']')
			if rb < 0 {
				return nil, nil, fmt.Errorf("missing ']' in %q", rest)
			}
			end = strings.IndexByte(rest[rb:], ',')
			if end >= 0 {
				end += rb
			}
		}
		item := rest
		if end >= 0 {
			item, rest = rest[:end], strings.TrimSpace(rest[end+1:])
			if rest == "" {
				return nil, nil, fmt.Errorf("expected NAME=INTEGER after the last ',', found nothing")
			}
		} else {
			rest = ""
		}
		name, val, found := strings.Cut(strings.TrimSpace(item), "=")
		name, val = strings.TrimSpace(name), strings.TrimSpace(val)
		if !found {
			return nil, nil, fmt.Errorf("expected NAME=INTEGER or NAME=[INTEGER,...], found %q", item)
		}
		if given[name] {
			return nil, nil, fmt.Errorf("%s is given twice", name)
		}
		var vals []integer.Int
		list := strings.HasPrefix(val, "[")
		if list {
			if !strings.HasSuffix(val, "]") {
				return nil, nil, fmt.Errorf("%s: expected a list [INTEGER,...], found %q", name, val)
			}
			inner := strings.TrimSpace(val[1 : len(val)-1])
			if inner != "" {
				for _, e := range strings.Split(inner, ",") {
					v, ok := integer.Parse(strings.TrimSpace(e))
					if !ok {
						return nil, nil, fmt.Errorf("%s: expected an integer, found %q", name, strings.TrimSpace(e))
					}
					vals = append(vals, v)
				}
			}
		} else {
			v, ok := integer.Parse(val)
			if !ok {
				if prog.VarIndex(name) < 0 && prog.ArrayIndex(name) == nil {
					return nil, nil, spec.SetInput(prog, store, name, nil, false) // the unknown-name error
				}
				return nil, nil, fmt.Errorf("%s: expected an integer, found %q", name, val)
			}
			vals = []integer.Int{v}
		}
		if err := spec.SetInput(prog, store, name, vals, list); err != nil {
			return nil, nil, err
		}
		given[name] = true
	}
	return store, given, nil
}

// FromJSON reads an input written as a JSON object for prog, {"n": 3, "a": [5, 0, 7, 1, 2]}:
// numbers keep all their digits (never through float64); a slot not given is 0. It returns the
// store (of length prog.Slots()) and the names given.
func FromJSON(raw []byte, prog *syntax.Program) (spec.Store, map[string]bool, error) {
	var obj map[string]json.RawMessage
	if err := json.Unmarshal(raw, &obj); err != nil {
		return nil, nil, fmt.Errorf("input: expected a JSON object, %v", err)
	}
	store := make(spec.Store, prog.Slots())
	given := map[string]bool{}
	for name, v := range obj {
		var num json.Number
		var nums []json.Number
		d := json.NewDecoder(bytes.NewReader(v))
		d.UseNumber()
		list := bytes.HasPrefix(bytes.TrimSpace(v), []byte("["))
		var err error
		if list {
			err = d.Decode(&nums)
		} else {
			err = d.Decode(&num)
			nums = []json.Number{num}
		}
		if err != nil {
			return nil, nil, fmt.Errorf("input %s: expected an integer or a list of integers, found %s", name, v)
		}
		vals := make([]integer.Int, len(nums))
		for k, n := range nums {
			x, ok := integer.Parse(n.String())
			if !ok {
				return nil, nil, fmt.Errorf("input %s: expected an integer, found %s", name, n)
			}
			vals[k] = x
		}
		if err := spec.SetInput(prog, store, name, vals, list); err != nil {
			return nil, nil, err
		}
		given[name] = true
	}
	return store, given, nil
}
