package kmsstate

// SettledKEKID is the KEK id every node's plugin of keyID last agreed on, the one kube-apiserver
// records in each value it writes with that key. false while no node has reported the key healthy: a KEK id
// kmsstate has not seen agreed on is no evidence of what is stored.
func (s *State) SettledKEKID(keyID string) (string, bool) {
	kek, ok := s.SettledKEKIDs[keyID]
	return kek, ok && kek != ""
}
