package ops

import (
	"fmt"
	"strings"

	"github.com/mcpeval/mcpeval/internal/lazyregexp"
)

// ImageOut is an image as the tools show it.
type ImageOut struct {
	ID      string   `json:"id"`
	ShortID string   `json:"short_id"`
	Ref     string   `json:"ref" jsonschema:"the image reference, name:tag"`
	SizeMB  int      `json:"size_mb"`
	UsedBy  []string `json:"used_by" jsonschema:"names of the containers made from it"`
}

func (s *State) imageOut(i *image) ImageOut {
	return ImageOut{ID: i.ID, ShortID: i.ID[:12], Ref: i.Ref, SizeMB: i.SizeMB, UsedBy: s.imageUsers(i)}
}

// ImagesOut lists images.
type ImagesOut struct {
	Images []ImageOut `json:"images"`
}

type pullIn struct {
	Ref string `json:"ref" jsonschema:"the image reference, name:tag (e.g. redis:7.4)"`
}

type removeImageIn struct {
	ImageID string `json:"image_id" jsonschema:"the image's reference (name:tag), id or short id"`
	Confirm bool   `json:"confirm,omitempty" jsonschema:"must be true, or nothing is removed; set it only when the user has clearly asked"`
}

var refRE = lazyregexp.New(`^[a-z0-9][a-z0-9._/-]*:[A-Za-z0-9._-]+$`)

// addImageTools registers the image tools.
func addImageTools(c *catalog) {
	c.domain("images", "image")
	add(c, read, "list_images", "List images",
		"List the images on the host with their size and the containers made from them.",
		nil, listImages)
	add(c, write, "pull_image", "Pull an image",
		"Download an image from the registry onto the host, so containers can be created from it. Pulling an image already on the host changes nothing.",
		nil, pullImage)
	add(c, destructive, "remove_image", "Remove an image",
		"Delete an image from the host. An image a container is made from is refused. Needs confirm: true.",
		nil, removeImage)
}

// listImages is the tool list_images.
func listImages(st *State, _ noInput) (ImagesOut, error) {
	out := ImagesOut{Images: []ImageOut{}}
	for _, i := range st.images {
		out.Images = append(out.Images, st.imageOut(i))
	}
	return out, nil
}

// pullImage is the tool pull_image.
func pullImage(st *State, in pullIn) (ImageOut, error) {
	if !refRE.MatchString(in.Ref) {
		return ImageOut{}, fmt.Errorf("image reference %q: want name:tag, such as redis:7.4", in.Ref)
	}
	if i := st.imageByRef(in.Ref); i != nil {
		return st.imageOut(i), nil
	}
	i := &image{ID: st.newID("image"), Ref: in.Ref, SizeMB: 20 + len(in.Ref)*7}
	st.images = append(st.images, i)
	st.record("pull_image", "image "+i.Ref)
	return st.imageOut(i), nil
}

// removeImage is the tool remove_image.
func removeImage(st *State, in removeImageIn) (RemovedOut, error) {
	if err := confirmed("remove_image", in.Confirm); err != nil {
		return RemovedOut{}, err
	}
	i, err := st.image(in.ImageID)
	if err != nil {
		return RemovedOut{}, err
	}
	if u := st.imageUsers(i); len(u) > 0 {
		return RemovedOut{}, fmt.Errorf("image %s is used by %s: remove those containers first", i.Ref, strings.Join(u, ", "))
	}
	st.images = remove(st.images, i)
	st.record("remove_image", "image "+i.Ref)
	return RemovedOut{Removed: i.Ref, ID: i.ID}, nil
}
