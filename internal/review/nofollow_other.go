//go:build !unix

package review

// noFollow is zero where opening cannot refuse a symbolic link; the
// reviews file is checked with Lstat before and after it is opened.
const noFollow = 0
