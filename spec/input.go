package spec

// InputString renders a concrete input (a value for each variable, indexed like names) as
// x=1, y=-2.
func InputString(in Store, names []string) string {
	s := ""
	for i, v := range in {
		if i > 0 {
			s += ", "
		}
		s += names[i] + "=" + v.String()
	}
	return s
}
