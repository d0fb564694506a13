package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestConcurrentAttemptsShareSyncs: attempts written at once are each
// synced before their call returns, and share syncs: while one sync is
// under way, the attempts written behind it wait and go to disk in the
// next one together.
func TestConcurrentAttemptsShareSyncs(t *testing.T) {
	dir := t.TempDir()
	w, err := Create(dir, &Header{RunID: "group", Preflight: Preflight{Valid: true}})
	if err != nil {
		t.Fatal(err)
	}
	// syncedTo is how many bytes of the file the last sync covered: as
	// many as it held when the sync began.
	var mu sync.Mutex
	syncs, syncedTo := 0, int64(0)
	sync0 := w.sync
	w.sync = func() error {
		w.mu.Lock()
		st, err := w.f.Stat()
		w.mu.Unlock()
		if err != nil {
			return err
		}
		time.Sleep(2 * time.Millisecond) // a disk's sync takes this long
		err = sync0()
		mu.Lock()
		syncs++
		syncedTo = st.Size()
		mu.Unlock()
		return err
	}
	const writers, each = 8, 25
	var wg sync.WaitGroup
	errs := make(chan error, writers*each)
	for i := range writers {
		wg.Go(func() {
			for n := range each {
				a := &Attempt{Case: fmt.Sprintf("c%d", i), N: n + 1, End: EndAnswered, Answer: "x"}
				if err := w.Attempt(a); err != nil {
					errs <- err
					return
				}
				b, _ := json.Marshal(line{Attempt: a})
				b = append(escapeJSON(b), '\n')
				data, err := os.ReadFile(filepath.Join(dir, FileName))
				if err != nil {
					errs <- err
					return
				}
				at := bytes.Index(data, b)
				mu.Lock()
				if at < 0 || int64(at+len(b)) > syncedTo {
					errs <- fmt.Errorf("attempt %s returned with its line (at %d) not synced: %d bytes synced", a.Key(), at, syncedTo)
				}
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if err := w.End(&End{Complete: true}); err != nil {
		t.Fatal(err)
	}
	run, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(run.Attempts) != writers*each || !run.Complete() {
		t.Fatalf("read back %d attempts (complete %v), want %d", len(run.Attempts), run.Complete(), writers*each)
	}
	if syncs >= writers*each/2 {
		t.Errorf("%d attempts written by %d writers at once took %d syncs, want them shared (under %d)", writers*each, writers, syncs, writers*each/2)
	}
	t.Logf("%d attempts, %d syncs", writers*each, syncs)
}
