package kmsstate

// SettledKEKID is the remote key_id (KEK id) every node's plugin of keyID last agreed on, the one kube-apiserver
// records in each value it writes with that key. false while no node has reported the key healthy: a KEK id
// kmsstate has not seen agreed on is no evidence of what is stored.
func (s *State) SettledKEKID(keyID string) (string, bool) {
	kek, ok := s.SettledKEKIDs[keyID]
	return kek, ok && kek != ""
}

// SettledKEKID is State().SettledKEKID, false before the first evaluation. kmsmigration's verification census
// reads the KMS v2 write keys' KEK ids through it.
func (c *Controller) SettledKEKID(keyID string) (string, bool) {
	state, ok := c.State()
	if !ok {
		return "", false
	}
	return state.SettledKEKID(keyID)
}
