// SPDX-FileCopyrightText: Copyright 2015-2025 go-swagger maintainers
// SPDX-License-Identifier: Apache-2.0

// Package fileutils exposes utilities to deal with files and paths.
//
// Currently, there is:
//   - [File] to represent an abstraction of an uploaded file.
//     For instance, this is used by [github.com/go-openapi/runtime.File].
//   - path search utilities (e.g. finding packages in the GO search path)
package fileutils
