package ops

import (
	"fmt"
	"slices"
	"strings"
)

// ProjectOut is a project as the tools show it.
type ProjectOut struct {
	ID          string   `json:"id"`
	Name        string   `json:"name"`
	Description string   `json:"description"`
	Containers  []string `json:"containers" jsonschema:"names of its containers"`
}

func (s *State) projectOut(p *project) ProjectOut {
	return ProjectOut{ID: p.ID, Name: p.Name, Description: p.Description, Containers: s.projectContainers(p)}
}

// ProjectsOut lists projects.
type ProjectsOut struct {
	Projects []ProjectOut `json:"projects"`
}

type projectRef struct {
	ProjectID string `json:"project_id" jsonschema:"the project's id (prj_...), from list_projects"`
}

type createProjectIn struct {
	Name        string `json:"name" jsonschema:"the new project's name, unique on the host"`
	Description string `json:"description,omitempty" jsonschema:"what the project is for"`
}

type updateProjectIn struct {
	ProjectID   string `json:"project_id" jsonschema:"the project's id (prj_...), from list_projects"`
	Name        string `json:"name,omitempty" jsonschema:"a new name"`
	Description string `json:"description,omitempty" jsonschema:"a new description"`
}

type deleteProjectIn struct {
	ProjectID        string `json:"project_id" jsonschema:"the project's id (prj_...), from list_projects"`
	RemoveContainers bool   `json:"remove_containers,omitempty" jsonschema:"remove its containers too; without it a project that has containers is refused"`
	Confirm          bool   `json:"confirm,omitempty" jsonschema:"must be true, or nothing is removed; set it only when the user has clearly asked"`
}

// addProjectTools registers the project tools.
func addProjectTools(c *catalog) {
	c.domain("projects", "project")
	add(c, read, "list_projects", "List projects",
		"List the projects (named groups of containers) with their ids, descriptions and containers.",
		nil, listProjects)
	add(c, read, "get_project", "Inspect a project",
		"Show one project by id: name, description and containers.",
		nil, getProject)
	add(c, write, "create_project", "Create a project",
		"Create an empty project; containers join it when created with its project_id.",
		nil, createProject)
	add(c, write, "update_project", "Update a project",
		"Rename a project or change its description. Give at least one of them.",
		nil, updateProject)
	add(c, destructive, "delete_project", "Delete a project",
		"Delete a project. One that still has containers is refused unless remove_containers is set, which removes them too. Needs confirm: true.",
		nil, deleteProject)
}

// listProjects is the tool list_projects.
func listProjects(st *State, _ noInput) (ProjectsOut, error) {
	out := ProjectsOut{Projects: []ProjectOut{}}
	for _, p := range st.projects {
		out.Projects = append(out.Projects, st.projectOut(p))
	}
	return out, nil
}

// getProject is the tool get_project.
func getProject(st *State, in projectRef) (ProjectOut, error) {
	p, err := st.project(in.ProjectID)
	if err != nil {
		return ProjectOut{}, err
	}
	return st.projectOut(p), nil
}

// createProject is the tool create_project.
func createProject(st *State, in createProjectIn) (ProjectOut, error) {
	if err := checkName("project", in.Name); err != nil {
		return ProjectOut{}, err
	}
	if st.projectByName(in.Name) != nil {
		return ProjectOut{}, fmt.Errorf("a project named %s already exists", in.Name)
	}
	p := &project{ID: "prj_" + st.newID("project")[:8], Name: in.Name, Description: in.Description}
	st.projects = append(st.projects, p)
	st.record("create_project", "project "+p.Name)
	return st.projectOut(p), nil
}

// updateProject is the tool update_project.
func updateProject(st *State, in updateProjectIn) (ProjectOut, error) {
	p, err := st.project(in.ProjectID)
	if err != nil {
		return ProjectOut{}, err
	}
	if in.Name == "" && in.Description == "" {
		return ProjectOut{}, fmt.Errorf("nothing to change: give name or description")
	}
	if in.Name != "" {
		if err := checkName("project", in.Name); err != nil {
			return ProjectOut{}, err
		}
		if o := st.projectByName(in.Name); o != nil && o != p {
			return ProjectOut{}, fmt.Errorf("a project named %s already exists", in.Name)
		}
		p.Name = in.Name
	}
	if in.Description != "" {
		p.Description = in.Description
	}
	st.record("update_project", "project "+p.Name)
	return st.projectOut(p), nil
}

// deleteProject is the tool delete_project.
func deleteProject(st *State, in deleteProjectIn) (RemovedOut, error) {
	if err := confirmed("delete_project", in.Confirm); err != nil {
		return RemovedOut{}, err
	}
	p, err := st.project(in.ProjectID)
	if err != nil {
		return RemovedOut{}, err
	}
	if cs := st.projectContainers(p); len(cs) > 0 {
		if !in.RemoveContainers {
			return RemovedOut{}, fmt.Errorf("project %s still has containers %s: remove them first, or delete it with remove_containers: true", p.Name, strings.Join(cs, ", "))
		}
		st.containers = slices.DeleteFunc(st.containers, func(c *container) bool { return c.ProjectID == p.ID })
	}
	st.projects = remove(st.projects, p)
	st.record("delete_project", "project "+p.Name)
	return RemovedOut{Removed: p.Name, ID: p.ID}, nil
}
