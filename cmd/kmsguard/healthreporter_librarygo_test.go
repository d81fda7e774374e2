package main

import (
	"testing"
)

func TestKeyIDFromSocket(t *testing.T) {
	scenarios := []struct {
		socket  string
		want    string
		wantErr bool
	}{
		{socket: "unix:///var/run/kmsplugin/kms-1.sock", want: "1"},
		{socket: "unix:///var/run/kmsplugin/kms-42.sock", want: "42"},
		{socket: "unix:///var/run/kmsplugin/plugin.sock", wantErr: true},
		{socket: "unix:///var/run/kmsplugin/kms-1.sock.bak", wantErr: true},
	}
	for _, s := range scenarios {
		t.Run(s.socket, func(t *testing.T) {
			got, err := keyIDFromSocket(s.socket)
			if (err != nil) != s.wantErr {
				t.Fatalf("err = %v, want error %t", err, s.wantErr)
			}
			if got != s.want {
				t.Errorf("key id %q, want %q", got, s.want)
			}
		})
	}
}
