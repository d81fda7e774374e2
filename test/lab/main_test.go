package lab

import (
	"os"
	"testing"
)

// TestMain lets the tests run containers: the lab's kubelet starts each as a process of this test binary
// (ContainerMain).
func TestMain(m *testing.M) {
	ContainerMain()
	os.Exit(m.Run())
}
