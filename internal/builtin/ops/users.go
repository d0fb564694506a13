package ops

import (
	"fmt"

	"github.com/mcpeval/mcpeval/internal/lazyregexp"
)

// UserOut is a user as the tools show it.
type UserOut struct {
	ID          string `json:"id"`
	Username    string `json:"username"`
	Email       string `json:"email"`
	DisplayName string `json:"display_name"`
	Role        string `json:"role"`
	Status      string `json:"status"`
}

func userOut(u *user) UserOut {
	return UserOut{ID: u.ID, Username: u.Username, Email: u.Email, DisplayName: u.DisplayName, Role: u.Role, Status: u.Status}
}

// UsersOut lists users.
type UsersOut struct {
	Users []UserOut `json:"users"`
}

type listUsersIn struct {
	Role   string `json:"role,omitempty" jsonschema:"only users with this role"`
	Status string `json:"status,omitempty" jsonschema:"only users in this status"`
}

type userRef struct {
	UserID string `json:"user_id" jsonschema:"the user's id (usr_...), from list_users"`
}

type createUserIn struct {
	Username    string `json:"username" jsonschema:"the login name, unique on the host"`
	Email       string `json:"email"`
	DisplayName string `json:"display_name" jsonschema:"the name shown to other users"`
	Role        string `json:"role" jsonschema:"viewer reads, operator also starts and stops, admin does everything"`
}

type setRoleIn struct {
	UserID string `json:"user_id" jsonschema:"the user's id (usr_...), from list_users"`
	Role   string `json:"role"`
}

type setStatusIn struct {
	UserID string `json:"user_id" jsonschema:"the user's id (usr_...), from list_users"`
	Status string `json:"status" jsonschema:"disabled users cannot log in"`
}

type deleteUserIn struct {
	UserID  string `json:"user_id" jsonschema:"the user's id (usr_...), from list_users"`
	Confirm bool   `json:"confirm,omitempty" jsonschema:"must be true, or nothing is removed; set it only when the user has clearly asked"`
}

var (
	roles    = []any{"viewer", "operator", "admin"}
	statuses = []any{"active", "disabled"}
	emailRE  = lazyregexp.New(`^[^@\s]+@[^@\s]+\.[^@\s]+$`)
)

// addUserTools registers the user tools.
func addUserTools(c *catalog) {
	c.domain("users", "user")
	add(c, read, "list_users", "List users",
		"List the people who may log in to the host, with their ids, roles and status.",
		map[string][]any{"role": roles, "status": statuses},
		listUsers)
	add(c, read, "get_user", "Inspect a user",
		"Show one user by id.",
		nil, getUser)
	add(c, write, "create_user", "Create a user",
		"Give someone a login on the host, with a role. The account starts active.",
		map[string][]any{"role": roles},
		createUser)
	add(c, write, "set_user_role", "Change a user's role",
		"Give a user another role.",
		map[string][]any{"role": roles},
		setUserRole)
	add(c, write, "set_user_status", "Enable or disable a user",
		"Disable a user's login, or enable it again. Nothing else about the user changes.",
		map[string][]any{"status": statuses},
		setUserStatus)
	add(c, destructive, "delete_user", "Delete a user",
		"Delete a user for good. The last active admin cannot be deleted. Needs confirm: true.",
		nil, deleteUser)
}

// listUsers is the tool list_users.
func listUsers(st *State, in listUsersIn) (UsersOut, error) {
	out := UsersOut{Users: []UserOut{}}
	for _, u := range st.users {
		if (in.Role == "" || u.Role == in.Role) && (in.Status == "" || u.Status == in.Status) {
			out.Users = append(out.Users, userOut(u))
		}
	}
	return out, nil
}

// getUser is the tool get_user.
func getUser(st *State, in userRef) (UserOut, error) {
	u, err := st.user(in.UserID)
	if err != nil {
		return UserOut{}, err
	}
	return userOut(u), nil
}

// createUser is the tool create_user.
func createUser(st *State, in createUserIn) (UserOut, error) {
	if err := checkName("user", in.Username); err != nil {
		return UserOut{}, err
	}
	if !emailRE.MatchString(in.Email) {
		return UserOut{}, fmt.Errorf("email %q: want an address such as name@example.com", in.Email)
	}
	for _, u := range st.users {
		if u.Username == in.Username {
			return UserOut{}, fmt.Errorf("a user named %s already exists", in.Username)
		}
	}
	u := &user{ID: "usr_" + st.newID("user")[:8], Username: in.Username, Email: in.Email, DisplayName: in.DisplayName, Role: in.Role, Status: "active"}
	st.users = append(st.users, u)
	st.record("create_user", "user "+u.Username)
	return userOut(u), nil
}

// setUserRole is the tool set_user_role.
func setUserRole(st *State, in setRoleIn) (UserOut, error) {
	u, err := st.user(in.UserID)
	if err != nil {
		return UserOut{}, err
	}
	u.Role = in.Role
	st.record("set_user_role", "user "+u.Username)
	return userOut(u), nil
}

// setUserStatus is the tool set_user_status.
func setUserStatus(st *State, in setStatusIn) (UserOut, error) {
	u, err := st.user(in.UserID)
	if err != nil {
		return UserOut{}, err
	}
	u.Status = in.Status
	st.record("set_user_status", "user "+u.Username)
	return userOut(u), nil
}

// deleteUser is the tool delete_user.
func deleteUser(st *State, in deleteUserIn) (RemovedOut, error) {
	if err := confirmed("delete_user", in.Confirm); err != nil {
		return RemovedOut{}, err
	}
	u, err := st.user(in.UserID)
	if err != nil {
		return RemovedOut{}, err
	}
	if u.Role == "admin" && u.Status == "active" {
		admins := 0
		for _, o := range st.users {
			if o.Role == "admin" && o.Status == "active" {
				admins++
			}
		}
		if admins == 1 {
			return RemovedOut{}, fmt.Errorf("%s is the last active admin and cannot be deleted", u.Username)
		}
	}
	st.users = remove(st.users, u)
	st.record("delete_user", "user "+u.Username)
	return RemovedOut{Removed: u.Username, ID: u.ID}, nil
}
