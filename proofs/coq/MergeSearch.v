(** * The bug finder with state merging: the engine's breadth-first queue, with pruning,
    in which a merge policy replaces groups of pending states with one continuation by their
    merge; the status stream and the verdict over it.  Proofs in [MergeSearchproof.v].

    What is modelled (Go: package [merge], [merge.Level] and [merge.States], for the merges;
    [certsym run] does not merge states yet, and this is the search it is to run when it
    does):
    - the pending states are merged states ([Merge.mstate]) with their depth (Go:
      [engine.State.Depth]), oldest first;
    - one iteration takes the oldest pending state, expands it ([Merge.mexpand]), drops the
      successors the oracle of that iteration refutes (as [Prune.psucc]), appends the others
      at the back, and then hands the pending list to the merge policy;
    - the merge policy [pol : nat -> list mitem -> list mitem] is any function of the
      iteration and of the pending list (like the schedulers' heuristics in [Sched.v], it
      covers any policy that depends on the history of the run: for one run, what it did at
      iteration [n] is a function of [n]);
    - the condition the theorems ask of the policy, [policy_ok]: what it returns is the
      list it was given after some merges in place ([merge_in_place]), each of a group of
      pending states whose merge is defined (so they have one continuation,
      [Mergeproof.merge_states_rejects]), the merge taking the place and the depth of the
      group's oldest state, and then reordered within each depth ([depth_perm]).  Merging
      only states of one depth ([policy_one_depth]; Go's [merge.Level] on the states of one
      depth) is a special case; the theorems do not need it, because the path conditions of
      the pending states are pairwise disjoint whatever their depths
      ([MergeSearchproof.mqueue_disjoint]);
    - the classification, [--all-bugs], the undecided answers and the verdict are those of
      [Engine.v] ([gclassify], [seen], [verdict_of]), with merged states for states.

    The extracted reference runs this search without pruning and with the policy
    [level_policy] (each depth merged, groups by continuation in place of the first, once
    the depth is complete, as [merge.Level] does on one depth). *)

From Coq Require Import List Bool String Arith Sorting.Permutation.
From Certsym Require Import Syntax Concrete Symbolic Expand Run Bugfinder Prune Engine Merge.
Import ListNotations.

(** ** Pending items *)

(** A pending merged state with its depth: the number of steps from the initial state (for a
    merge, the depth of its group's oldest state). *)
Definition mitem : Type := (nat * mstate)%type.
Definition idepth (i : mitem) : nat := fst i.
Definition istate (i : mitem) : mstate := snd i.

(** ** The queue with a merge policy *)

(** One iteration: the breadth-first step of [Run.v] with the successors [succ], then the
    policy. *)
Definition mqstep {A : Type} (pol : list A -> list A) (succ : A -> list A) (q : list A)
    : list A :=
  pol (bfs_step succ q).

(** The pending list after [n] iterations; iteration [k] uses [succ k] and [pol k]. *)
Fixpoint mqueue {A : Type} (pol : nat -> list A -> list A) (succ : nat -> A -> list A)
    (n : nat) (l : list A) : list A :=
  match n with
  | O => l
  | S k => mqstep (pol k) (succ k) (mqueue pol succ k l)
  end.

(** The [n]-th element of the stream: the state expanded at iteration [n], the oldest
    pending one ([None] once the list is empty). *)
Definition mnth {A : Type} (pol : nat -> list A -> list A) (succ : nat -> A -> list A)
    (l : list A) (n : nat) : option A :=
  hd_error (mqueue pol succ n l).

(** ** The merge policy *)

(** [interleave l1 l2 l]: [l] is [l1] and [l2] interleaved, each in its own order. *)
Inductive interleave {A : Type} : list A -> list A -> list A -> Prop :=
  | il_nil : interleave [] [] []
  | il_left : forall x l1 l2 l, interleave l1 l2 l -> interleave (x :: l1) l2 (x :: l)
  | il_right : forall x l1 l2 l, interleave l1 l2 l -> interleave l1 (x :: l2) (x :: l).

(** One merge in place, of a group whose members satisfy [same] with its first: the first
    member [x] at some position, the others [J] anywhere after it (the rest [R] of the list
    after [x] keeping its order), replaced by the merge of the group at the place of [x],
    with [x]'s depth.  The merge must be defined ([merge_states]), so the group has one
    continuation. *)
Definition merge_group (same : mitem -> mitem -> Prop) (q q' : list mitem) : Prop :=
  exists pre x post J R m,
    q = pre ++ x :: post /\ interleave J R post /\ Forall (same x) J /\
    merge_states (map istate (x :: J)) = Some m /\
    q' = pre ++ (idepth x, m) :: R.

(** Any group with one continuation. *)
Definition merge_in_place : list mitem -> list mitem -> Prop := merge_group (fun _ _ => True).

(** A group of states of one depth with one continuation. *)
Definition merge_one_depth : list mitem -> list mitem -> Prop :=
  merge_group (fun x y => idepth x = idepth y).

(** A reordering that keeps the sequence of depths: states change places only with states of
    their depth. *)
Definition depth_perm (q q' : list mitem) : Prop :=
  Permutation q q' /\ map idepth q = map idepth q'.

(** The condition on a merge policy: at every iteration, it returns the pending list it was
    given after merges in place (none, one, or several one after the other), reordered within
    each depth. *)
Definition policy_ok (pol : nat -> list mitem -> list mitem) : Prop :=
  forall n q, exists q0, star merge_in_place q q0 /\ depth_perm q0 (pol n q).

(** The same with merges of states of one depth only (Go's policy: [merge.Level] on the states
    of one depth, which also puts the states of a group it cannot merge together, in the place
    of the group's first); it satisfies [policy_ok]
    ([MergeSearchproof.policy_one_depth_ok]). *)
Definition policy_one_depth (pol : nat -> list mitem -> list mitem) : Prop :=
  forall n q, exists q0, star merge_one_depth q q0 /\ depth_perm q0 (pol n q).

(** The policy that never merges. *)
Definition no_merge : nat -> list mitem -> list mitem := fun _ q => q.

(** ** The merged search with pruning *)

(** A merged successor is kept unless the oracle refutes its path condition. *)
Definition mkeep (ask : bexpr -> option bool) (m : mstate) : bool :=
  match ask (mpc m) with
  | Some false => false
  | _ => true
  end.

(** The kept successors of a pending item, in the order of [mexpand], one level deeper. *)
Definition msucc (ask : bexpr -> option bool) (i : mitem) : list mitem :=
  map (fun m => (S (idepth i), m)) (filter (mkeep ask) (mexpand_state (istate i))).

(** The stream of the merged search from the pending list [l]: the successors of the state
    of iteration [n] are pruned with the answers [ask n], then the policy [pol n] merges. *)
Definition msearch (pol : nat -> list mitem -> list mitem) (ask : nat -> bexpr -> option bool)
    (l : list mitem) : nat -> option mitem :=
  mnth pol (fun n => msucc (ask n)) l.

(** The initial pending list of a program: [⟨true, id, p⟩] at depth 0. *)
Definition minit (p : stmt) : list mitem := [(0, lift (sym_init p))].

(** The run stream of the engine with merging (as [Engine.grun]). *)
Definition mgrun (pol : nat -> list mitem -> list mitem) (md : mode)
    (ask : nat -> bexpr -> option bool) (p : stmt) (n : nat) : option mstate :=
  option_map istate (msearch pol (fun k => prune_oracle md (ask k)) (minit p) n).

(** ** The bug finder over the merged stream *)

(** The identity of an error of a merged state at a position of the stream (as
    [Engine.errkey]; Go: the [spec.Fail] at the head of the state's program). *)
Record mkey : Type := MKey {
  mkey_t : Type;
  mkey_of : nat -> mstate -> mkey_t;
  mkey_dec : forall a b : mkey_t, {a = b} + {a <> b}
}.

(** Go's status messages, with merged states (as [Engine.gstatus]). *)
Inductive mstatus : Type :=
  | MPending
  | MUnknown (m : mstate)
  | MBugFound (m : mstate)
  | MFinished.

(** Classification of element [n] (as [Engine.gclassify]). *)
Definition mclassify (E : mkey) (ask : bexpr -> option bool) (seen : list (mkey_t E))
    (n : nat) (o : option mstate) : mstatus :=
  match o with
  | None => MFinished
  | Some m =>
      if is_error (mprog m) then
        if in_dec (mkey_dec E) (mkey_of E n m) seen then MPending
        else
          match ask (mpc m) with
          | Some true => MBugFound m
          | Some false => MPending
          | None => MUnknown m
          end
      else MPending
  end.

(** The keys reported before iteration [n] (as [Engine.seen]). *)
Fixpoint mseen (pol : nat -> list mitem -> list mitem) (E : mkey) (md : mode)
    (ask : nat -> bexpr -> option bool) (p : stmt) (n : nat) : list (mkey_t E) :=
  match n with
  | O => []
  | S n' =>
      let s := mseen pol E md ask p n' in
      match mclassify E (ask n') s n' (mgrun pol md ask p n') with
      | MBugFound m => if all_bugs md then mkey_of E n' m :: s else s
      | _ => s
      end
  end.

(** The status stream of the engine with merging (as [Engine.gfind]). *)
Definition mgfind (pol : nat -> list mitem -> list mitem) (E : mkey) (md : mode)
    (ask : nat -> bexpr -> option bool) (p : stmt) (n : nat) : mstatus :=
  mclassify E (ask n) (mseen pol E md ask p n) n (mgrun pol md ask p n).

Definition m_is_bugfound (g : mstatus) : bool :=
  match g with MBugFound _ => true | _ => false end.
Definition m_is_unknown (g : mstatus) : bool :=
  match g with MUnknown _ => true | _ => false end.
Definition m_is_finished (g : mstatus) : bool :=
  match g with MFinished => true | _ => false end.

(** The verdict of a list of statuses (as [Engine.verdict_of]). *)
Definition mverdict_of (l : list mstatus) : verdict :=
  if existsb m_is_bugfound l then VBug
  else if existsb m_is_unknown l then VUnknown
  else if existsb m_is_finished l then VSafe
  else VUnknown.

(** The first [n] statuses, and their verdict (as [Engine.gprefix], [Engine.gverdict]). *)
Definition mgprefix (pol : nat -> list mitem -> list mitem) (E : mkey) (md : mode)
    (ask : nat -> bexpr -> option bool) (p : stmt) (n : nat) : list mstatus :=
  map (mgfind pol E md ask p) (seq 0 n).

Definition mgverdict (pol : nat -> list mitem -> list mitem) (E : mkey) (md : mode)
    (ask : nat -> bexpr -> option bool) (p : stmt) (n : nat) : verdict :=
  mverdict_of (mgprefix pol E md ask p n).

(** ** A policy: each depth merged once it is complete *)

(** Two items of one depth with one continuation. *)
Definition same_group (x y : mitem) : bool :=
  Nat.eqb (idepth x) (idepth y) &&
  (if stmt_eq_dec (mprog (istate x)) (mprog (istate y)) then true else false).

(** Each group of items of one depth with one continuation merged in place of its first
    (Go: [merge.Level]); [fuel] bounds the recursion (the length of the list suffices). *)
Fixpoint merge_groups_fuel (fuel : nat) (q : list mitem) : list mitem :=
  match fuel, q with
  | O, _ => q
  | _, [] => []
  | S f, x :: rest =>
      let (J, R) := partition (same_group x) rest in
      match merge_states (map istate (x :: J)) with
      | Some m => (idepth x, m) :: merge_groups_fuel f R
      | None => x :: merge_groups_fuel f rest
      end
  end.

Definition merge_groups (q : list mitem) : list mitem := merge_groups_fuel (List.length q) q.

(** The pending list holds one depth only (in the breadth-first search: a depth is complete,
    its states all produced, and none of the next yet). *)
Definition one_depth (q : list mitem) : bool :=
  match q with
  | [] => false
  | x :: _ => forallb (fun y => Nat.eqb (idepth y) (idepth x)) q
  end.

(** Merge the groups of a depth once it is complete. *)
Definition level_policy : nat -> list mitem -> list mitem :=
  fun _ q => if one_depth q then merge_groups q else q.

(** ** Entry points of the reference *)

(** A store of guarded terms over the finite domain of the printed variables and arrays. *)
Definition mstore_lists (vars arrs : list var) (G : mstore)
    : list (var * guarded aexpr) * list (var * guarded arr) :=
  (map (fun x => (x, msv G x)) vars, map (fun a => (a, msa G a)) arrs).

(** The merged search the reference runs: no pruning, [level_policy]. *)
Definition ref_mrun (p : stmt) : nat -> option mitem :=
  msearch level_policy (fun _ => never) (minit p).

(** One iteration of it (the driver iterates it instead of recomputing [ref_mrun]; neither
    the policy nor the successors depend on the iteration:
    [MergeSearchproof.ref_mstep_queue]). *)
Definition ref_mstep (q : list mitem) : list mitem :=
  mqstep (level_policy 0) (msucc never) q.

Definition unit_dec : forall a b : unit, {a = b} + {a <> b}.
Proof. decide equality. Defined.

(** No error key: the reference does not report errors once each. *)
Definition ref_mkey : mkey := MKey unit (fun _ _ => tt) unit_dec.

(** The status of element [n] of the reference's stream: the classification [mclassify] with
    the oracle that never answers (an error state is [MUnknown]: the reference has no
    solver). *)
Definition ref_mstatus (n : nat) (o : option mitem) : mstatus :=
  mclassify ref_mkey never [] n (option_map istate o).
