package module

import "strings"

// Search returns the stored modules query matches, in name order: a
// case-insensitive substring of the module's name or of one of its
// skills', commands' or agents' names (today's Lola's local search), or
// of a skill's description. A directory of the store that is not a valid
// module matches by name only.
func (s *Store) Search(query string) ([]Listed, error) {
	ls, err := s.List()
	if err != nil {
		return nil, err
	}
	q := strings.ToLower(query)
	var out []Listed
	for _, l := range ls {
		if Matches(l, q) {
			out = append(out, l)
		}
	}
	return out, nil
}

// Matches reports whether the lower-cased query q matches l (see Search).
func Matches(l Listed, q string) bool {
	texts := []string{l.Name}
	if l.Module != nil {
		ly := l.Module.Layout()
		for _, x := range ly.Skills {
			texts = append(texts, x.Name, x.Description)
		}
		for _, x := range ly.Commands {
			texts = append(texts, x.Name)
		}
		for _, x := range ly.Agents {
			texts = append(texts, x.Name)
		}
	}
	for _, t := range texts {
		if strings.Contains(strings.ToLower(t), q) {
			return true
		}
	}
	return false
}
