//go:build go1.18
// +build go1.18

// Copyright 2017 Microsoft Corporation. All rights reserved.
// Use of this source code is governed by an MIT
// license that can be found in the LICENSE file.

// Package runtime contains various facilities for creating requests and handling responses.
// The content is intended for SDK authors.
package runtime
