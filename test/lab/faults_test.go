package lab

import (
	"context"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"

	"github.com/kmsguard/kmsguard/bindata"
	"github.com/kmsguard/kmsguard/pkg/kmsplugin/fake"
)

// TestInjectRefusesWhatItCannotDo: a fault the lab cannot apply is an error that says why, and changes nothing.
func TestInjectRefusesWhatItCannotDo(t *testing.T) {
	scenarios := []struct {
		name    string
		in      Injection
		wantErr string
	}{
		{name: "unknown fault", in: Injection{Fault: "meteor"}, wantErr: `unknown fault "meteor"`},
		{name: "a KMS fault on a node", in: Injection{Fault: FaultKeyDisable, Node: "master-0"}, wantErr: "acts on the simulated KMS or the cluster"},
		{name: "a node the lab does not have", in: Injection{Fault: FaultPluginStop, Node: "master-7"}, wantErr: `no node "master-7" (the lab has master-0, master-1)`},
		{name: "no plugin to stop", in: Injection{Fault: FaultPluginStop, Node: "master-1"}, wantErr: "no KMS plugin runs on master-1"},
		{name: "an apiserver restart without a node", in: Injection{Fault: FaultAPIServerRestart}, wantErr: "apiserver-restart needs a node"},
		{name: "negative latency", in: Injection{Fault: FaultKMSLatency, Latency: -1}, wantErr: "negative latency"},
		{name: "a reboot without a node", in: Injection{Fault: FaultNodeReboot}, wantErr: "node-reboot needs a node"},
		{name: "a reboot of a node the lab does not have", in: Injection{Fault: FaultNodeReboot, Node: "master-7"}, wantErr: `no node "master-7"`},
		{name: "a negative reboot", in: Injection{Fault: FaultNodeReboot, Node: "master-1", Down: -1}, wantErr: "negative --down"},
		{name: "a node that reboots already", in: Injection{Fault: FaultNodeReboot, Node: "master-0"}, wantErr: "master-0: the node is rebooting already"},
		{name: "a KEK the KMS never issued", in: Injection{Fault: FaultKeyDestroy, KEKID: "key-99"}, wantErr: `"key-99" does not exist`},
	}
	for _, s := range scenarios {
		t.Run(s.name, func(t *testing.T) {
			kms := fake.NewKMS()
			l := &Lab{kms: kms, nodes: []*Node{{name: "master-0", rebooting: true}, {name: "master-1"}}}
			_, err := l.Inject(context.Background(), s.in)
			if err == nil || !strings.Contains(err.Error(), s.wantErr) {
				t.Fatalf("Inject(%+v) = %v, want an error containing %q", s.in, err, s.wantErr)
			}
			if got := kms.CurrentKEKID(); got != "key-1" {
				t.Errorf("the simulated KMS moved to KEK %s", got)
			}
		})
	}
}

// TestInjectKeyFaults: key faults act on the simulated KMS's current KEK unless another is named.
func TestInjectKeyFaults(t *testing.T) {
	kms := fake.NewKMS()
	l := &Lab{kms: kms}
	ctx := context.Background()
	did, err := l.Inject(ctx, Injection{Fault: FaultKeyRotate})
	if err != nil || !strings.Contains(did, "from KEK key-1 to key-2") {
		t.Fatalf("rotate: %q, %v", did, err)
	}
	if did, err = l.Inject(ctx, Injection{Fault: FaultKeyDisable, KEKID: "key-1"}); err != nil || !strings.Contains(did, "disabled KEK key-1") {
		t.Fatalf("disable key-1: %q, %v", did, err)
	}
	if _, err = l.Inject(ctx, Injection{Fault: FaultKeyDestroy}); err != nil {
		t.Fatal(err)
	}
	if _, err = l.Inject(ctx, Injection{Fault: FaultKeyRestore}); err == nil || !strings.Contains(err.Error(), "destroyed") {
		t.Errorf("restoring the destroyed current KEK key-2: %v, want an error saying it is destroyed", err)
	}
	if did, err = l.Inject(ctx, Injection{Fault: FaultKeyRestore, KEKID: "key-1"}); err != nil || !strings.Contains(did, "restored KEK key-1") {
		t.Errorf("restore key-1: %q, %v", did, err)
	}
}

// TestKMSEncryptionIsTheSimulatedKMS: the embedded spec make run switches with names the address the simulated
// KMS plays, and a bad config only changes that address.
func TestKMSEncryptionIsTheSimulatedKMS(t *testing.T) {
	var embedded struct {
		KMS struct {
			Vault struct {
				VaultAddress string `json:"vaultAddress"`
			} `json:"vault"`
		} `json:"kms"`
	}
	if err := yaml.Unmarshal(bindata.MustAsset(bindata.LabKMSEncryption), &embedded); err != nil {
		t.Fatal(err)
	}
	if embedded.KMS.Vault.VaultAddress != SimulatedKMSAddress {
		t.Errorf("the embedded spec names %s, the simulated KMS is at %s", embedded.KMS.Vault.VaultAddress, SimulatedKMSAddress)
	}
	good, err := kmsEncryption(SimulatedKMSAddress)
	if err != nil {
		t.Fatal(err)
	}
	bad, err := kmsEncryption(UnreachableKMSAddress)
	if err != nil {
		t.Fatal(err)
	}
	if bad.KMS.Vault.VaultAddress != UnreachableKMSAddress {
		t.Errorf("bad config at %s", bad.KMS.Vault.VaultAddress)
	}
	bad.KMS.Vault.VaultAddress = SimulatedKMSAddress
	if bad != good {
		t.Errorf("the bad config differs in more than the address:\n%+v\n%+v", bad, good)
	}
}

// TestEveryFaultHasItsUsage: `kmsguard-lab inject --help` is generated from Faults and their usage, so a fault
// without one would be listed blank, and a usage of no listed fault never shown.
func TestEveryFaultHasItsUsage(t *testing.T) {
	listed := map[Fault]bool{}
	for _, f := range Faults {
		listed[f] = true
		if f.Usage().Help == "" {
			t.Errorf("fault %s has no usage", f)
		}
	}
	for f := range faultUsage {
		if !listed[f] {
			t.Errorf("fault %s has a usage but is not in Faults", f)
		}
	}
}

// TestInjectOperatorStopWaitsForItsControllers: operator-stop stops the running operator and returns only once
// every goroutine that runs its controllers has returned, so nothing it runs acts after the story goes on; a
// second stop says it was stopped already.
func TestInjectOperatorStopWaitsForItsControllers(t *testing.T) {
	ctx, stop := context.WithCancel(context.Background())
	o := &Operator{stop: stop}
	returned := make(chan struct{})
	o.done.Add(1)
	go func() {
		defer o.done.Done()
		<-ctx.Done()
		close(returned)
	}()
	l := &Lab{kms: fake.NewKMS(), operator: o, operatorRunning: true}

	did, err := l.Inject(context.Background(), Injection{Fault: FaultOperatorStop})
	if err != nil || !strings.Contains(did, "stopped the operator") {
		t.Fatalf("operator-stop = %q, %v", did, err)
	}
	select {
	case <-returned:
	default:
		t.Fatal("operator-stop returned before the operator's controllers did")
	}
	if l.operator != o || l.operatorRunning {
		t.Error("operator-stop replaced the operator or left it marked running")
	}
	if did, err := l.Inject(context.Background(), Injection{Fault: FaultOperatorStop}); err != nil || !strings.Contains(did, "stopped already") {
		t.Errorf("operator-stop again = %q, %v, want it to say the operator was stopped already", did, err)
	}
}
