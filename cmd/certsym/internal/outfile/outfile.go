// Package outfile is how the certsym command treats the files it writes besides its report (run
// --tests, --sarif, --lcov, --dot; verify --html, --sarif): each is checked before the run, so
// that a run whose results could not be written is not started, and written whole or not at all.
package outfile

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/signal"
	"path/filepath"
	"syscall"

	"certsym/cmd/certsym/internal/catch"
)

// CheckFile checks that the file path can be written: it is not a directory, and its directory
// exists and lets a file be created in it (tried with a temporary file, removed at once).
func CheckFile(path string) error {
	if fi, err := os.Stat(path); err == nil && fi.IsDir() {
		return fmt.Errorf("%s is a directory, not a file", path)
	}
	if err := canCreateIn(filepath.Dir(path)); err != nil {
		return fmt.Errorf("cannot write %s: %v", path, err)
	}
	return nil
}

// CheckDir checks that the directory dir can receive files: it is a directory that lets a file be
// created in it, or it does not exist yet and its nearest existing parent is such a directory
// (the run creates it). A path that cannot be looked up is taken as missing: its parent is looked
// up instead, and says what is wrong.
func CheckDir(dir string) error {
	d := dir
	for {
		fi, err := os.Stat(d)
		if err == nil {
			if !fi.IsDir() {
				return fmt.Errorf("%s is not a directory", d)
			}
			break
		}
		parent := filepath.Dir(d)
		if parent == d {
			break
		}
		d = parent
	}
	if err := canCreateIn(d); err != nil {
		return fmt.Errorf("cannot write in %s: %v", dir, err)
	}
	return nil
}

// canCreateIn creates and removes a temporary file in dir: nil when that works. The checks run
// before the run handles signals, so an interrupt (SIGINT, SIGTERM) would end the process between
// the creation and the removal and leave the file: one that arrives then is held until the file
// is removed (by the process's catcher, package catch, or, without one, here), and answered then.
func canCreateIn(dir string) error {
	if release, ok := catch.Hold(); ok {
		defer release()
	} else {
		held := make(chan os.Signal, 1)
		signal.Notify(held, os.Interrupt, syscall.SIGTERM)
		defer func() {
			signal.Stop(held)
			select {
			case s := <-held:
				syscall.Kill(os.Getpid(), s.(syscall.Signal))
			default:
			}
		}()
	}
	f, err := os.CreateTemp(dir, ".certsym-check-*")
	if err != nil {
		var pe *fs.PathError
		if errors.As(err, &pe) {
			return pe.Err
		}
		return err
	}
	created()
	f.Close()
	return os.Remove(f.Name())
}

// created is called between the creation of canCreateIn's file and its removal (a test sends a
// signal there).
var created = func() {}

// Write writes data to path whole or not at all: to a temporary file in path's directory,
// renamed over path once written, so that a reader, or a run interrupted or failing while it
// writes, sees the old file or the new one, never a part of it (a run killed mid-write may leave
// the temporary file, never a half-written path). The file is not synced to disk: run --tests
// writes thousands of files, and a sync each (as renameio does) made it seven times slower; what
// the command promises is whole files, not their survival of a crash of the machine.
func Write(path string, data []byte) error {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	f, err := os.CreateTemp(dir, "."+base+".tmp-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
	}
	return err
}
