(** * Fair schedulers: a search that picks any pending state, not only the
    oldest.  Proofs in [Schedproof.v].

    The discipline modelled (Go: the strategies of engine/search.go other than [bfs]):
    the pending states are kept in age order, oldest first; at each iteration the
    scheduler picks ONE pending state by its index in that list, removes it, expands it
    and appends its kept successors at the back, in the order of [expand] (exactly like
    the breadth-first queue of [Run.v] and [Prune.v]).

    A scheduler is any function [pick : nat -> list A -> nat]: [pick n q] is the index
    chosen at iteration [n] when the pending list is [q].  An index out of range
    ([pick n q >= length q]) is read as [0], the oldest pending state ([sel]); so every
    function is a scheduler, and the stream is total.  Because the function may depend on
    the iteration number in any way, it covers every heuristic that depends on the
    history of the run (coverage counts, a random generator with its seed, ...): for one
    run, the index Go chose at iteration [n] is a function of [n].

    The successor function is the iteration-indexed family of [Prune.v] ([succ n] are
    the successors kept at iteration [n]), so the pruned search, with an oracle whose
    answers change from one iteration to the next, is covered; [fun _ => expand_state]
    is the unpruned search.

    Schedulers defined here: [bfs_pick] (always the oldest: the search of [Run.v] and
    [Prune.v], [Schedproof.sprun_bfs]), [dfs_pick] (always the newest; unfair,
    [Schedproof.dfs_unfair]) and [kpick K h] (every [K]-th iteration, those with
    [n mod K = K - 1], the oldest; otherwise whatever the heuristic [h] says; fair for
    every [K >= 1] and every [h], with a bound, [Schedproof.kpick_fair_within]).  Go's
    [coverage] and [random-path] strategies are [kpick 4 h] for their heuristic [h]. *)

From Coq Require Import String ZArith List Arith.
From Certsym Require Import Syntax Concrete Symbolic Expand Run Bugfinder Prune Engine.
Import ListNotations.
Local Open Scope nat_scope.

(** ** The scheduled queue *)

(** [l] without its element of index [i] ([l] itself if there is none). *)
Fixpoint remove_at {A : Type} (i : nat) (l : list A) : list A :=
  match l, i with
  | [], _ => []
  | _ :: l', O => l'
  | x :: l', S i' => x :: remove_at i' l'
  end.

(** The index actually taken: [i] if it is in range, else [0] (the oldest). *)
Definition sel {A : Type} (i : nat) (l : list A) : nat :=
  if Nat.ltb i (length l) then i else 0.

(** One iteration: take the element of index [sel i l], append its successors at the
    back.  The empty list stays empty. *)
Definition sstep {A : Type} (succ : A -> list A) (i : nat) (l : list A) : list A :=
  match nth_error l (sel i l) with
  | None => []
  | Some t => remove_at (sel i l) l ++ succ t
  end.

(** The pending list after [n] iterations; iteration [k] picks [pick k q] in the list
    [q] it starts with and keeps the successors [succ k]. *)
Fixpoint squeue {A : Type} (pick : nat -> list A -> nat) (succ : nat -> A -> list A)
    (n : nat) (l : list A) : list A :=
  match n with
  | O => l
  | S k => let q := squeue pick succ k l in sstep (succ k) (pick k q) q
  end.

(** The [n]-th element of the stream: the element picked at iteration [n] ([None] once
    the list is empty). *)
Definition snth {A : Type} (pick : nat -> list A -> nat) (succ : nat -> A -> list A)
    (l : list A) (n : nat) : option A :=
  let q := squeue pick succ n l in nth_error q (sel (pick n q) q).

(** ** Fairness *)

(** A scheduler is fair when, whatever the successor family and the initial list, every
    element pending at iteration [n] is picked at some iteration [m >= n]. *)
Definition fair {A : Type} (pick : nat -> list A -> nat) : Prop :=
  forall (succ : nat -> A -> list A) n l t,
    In t (squeue pick succ n l) -> exists m, n <= m /\ snth pick succ l m = Some t.

(** Fair with a bound: the element of index [j] at iteration [n] (it has [j] older
    pending elements) is picked within [bound j] iterations. *)
Definition fair_within {A : Type} (pick : nat -> list A -> nat) (bound : nat -> nat) : Prop :=
  forall (succ : nat -> A -> list A) n l j t,
    nth_error (squeue pick succ n l) j = Some t ->
    exists m, n <= m < n + bound j /\ snth pick succ l m = Some t.

(** ** Schedulers *)

(** Breadth-first: always the oldest. *)
Definition bfs_pick {A : Type} : nat -> list A -> nat := fun _ _ => 0.

(** Depth-first: always the newest. *)
Definition dfs_pick {A : Type} : nat -> list A -> nat := fun _ q => pred (length q).

(** The shipped discipline: at the iterations [n] with [n mod K = K - 1] the oldest,
    at the others the index the heuristic [h] chooses (Go: [K = 4]). *)
Definition kpick {A : Type} (K : nat) (h : nat -> list A -> nat) : nat -> list A -> nat :=
  fun n q => if Nat.eqb (Nat.modulo n K) (pred K) then 0 else h n q.

(** ** Counterexamples for DFS *)

(** Elements are numbers, [x] has the one successor [x + 1], and the initial list is
    [[0; 1]]: DFS picks [1], [2], [3], ... and [0] stays pending
    ([Schedproof.dfs_starves]). *)
Definition dfs_succ : nat -> nat -> list nat := fun _ x => [S x].

(** [if x < 0 then fail else while true do skip]: a bug (input [x = -1]) that DFS,
    without pruning or with pruning by a sound oracle, never reaches, since the newest
    pending state is always one of the loop's ([Schedproof.dfs_misses_bug]). *)
Definition dfs_loop : stmt := While Btrue Skip.
Definition dfs_prog : stmt := If (Blt (Var "x"%string) (Cst 0)) (Fail KFail) dfs_loop.

(** Its error state, and an input that reaches it. *)
Definition dfs_bug_state : sym_state :=
  let c := bsubst sid (Blt (Var "x"%string) (Cst 0)) in (Band Btrue (Band (bD c) c), sid, Fail KFail).

Lemma dfs_bug_sat : exists V, sat V (pc dfs_bug_state).
Proof. exists (Store (fun _ => (-1)%Z) (fun _ _ => 0%Z)). reflexivity. Qed.

(** The path condition of its [else] branch, and an input that satisfies it. *)
Definition dfs_else_pc : bexpr :=
  let c := bsubst sid (Blt (Var "x"%string) (Cst 0)) in Band Btrue (Band (bD c) (Bnot c)).

Definition dfs_V0 : store := Store (fun _ => 0%Z) (fun _ _ => 0%Z).

Lemma dfs_else_sat : sat dfs_V0 dfs_else_pc.
Proof. reflexivity. Qed.

(** ** The scheduled symbolic search and bug finders *)

(** The unpruned search under scheduler [pick]. *)
Definition srun (pick : nat -> list sym_state -> nat) (l : list sym_state)
    : nat -> option sym_state :=
  snth pick (fun _ => expand_state) l.

(** The pruned search under scheduler [pick] (as [Prune.prun]: the successors of the
    state of iteration [n] are pruned with the answers [ask n]). *)
Definition sprun (pick : nat -> list sym_state -> nat) (ask : nat -> bexpr -> option bool)
    (l : list sym_state) : nat -> option sym_state :=
  snth pick (fun n => psucc (ask n)) l.

(** The paper's bug finder (as [Prune.pfind_bugs]) over the scheduled pruned stream. *)
Definition sfind_bugs (pick : nat -> list sym_state -> nat) (ask : nat -> bexpr -> option bool)
    (p : stmt) (n : nat) : status :=
  classify (ask n) (sprun pick ask (init p) n).

(** The engine's run stream (as [Engine.grun]) under scheduler [pick]. *)
Definition sgrun (pick : nat -> list sym_state -> nat) (m : mode)
    (ask : nat -> bexpr -> option bool) (p : stmt) : nat -> option sym_state :=
  sprun pick (fun n => prune_oracle m (ask n)) (init p).

(** The keys reported before iteration [n] (as [Engine.seen]). *)
Fixpoint sseen (pick : nat -> list sym_state -> nat) (E : errkey) (m : mode)
    (ask : nat -> bexpr -> option bool) (p : stmt) (n : nat) : list (key_t E) :=
  match n with
  | O => []
  | S n' =>
      let s := sseen pick E m ask p n' in
      match gclassify E (ask n') s n' (sgrun pick m ask p n') with
      | GBugFound t => if all_bugs m then key E n' t :: s else s
      | _ => s
      end
  end.

(** The engine's status stream (as [Engine.gfind], Go: the [n]-th value of [Next])
    under scheduler [pick]. *)
Definition sgfind (pick : nat -> list sym_state -> nat) (E : errkey) (m : mode)
    (ask : nat -> bexpr -> option bool) (p : stmt) (n : nat) : gstatus :=
  gclassify E (ask n) (sseen pick E m ask p n) n (sgrun pick m ask p n).

(** The first [n] statuses (as [Engine.gprefix]). *)
Definition sgprefix (pick : nat -> list sym_state -> nat) (E : errkey) (m : mode)
    (ask : nat -> bexpr -> option bool) (p : stmt) (n : nat) : list gstatus :=
  map (sgfind pick E m ask p) (seq 0 n).

(** The verdict after the first [n] statuses (as [Engine.gverdict]). *)
Definition sgverdict (pick : nat -> list sym_state -> nat) (E : errkey) (m : mode)
    (ask : nat -> bexpr -> option bool) (p : stmt) (n : nat) : verdict :=
  verdict_of (sgprefix pick E m ask p n).

(** ** The bounded-burst schedule (Go: [run --burst B], engine/burst.go) *)

(** The concrete fast path advances a state whose next steps read no symbol by up to [B]
    steps in one pick of the frontier, then queues it again.  As a schedule: at each
    iteration that is not a fairness iteration, the newest pending state is taken when
    the burst goes on ([cont n q]: Go's test that the state picked at iteration [n - 1]
    was concrete, with one successor, the newest pending state, itself concrete), the
    oldest otherwise; every [S B]-th iteration takes the oldest.  [cont] may depend on
    the iteration in any way (it is a function of the run's history), so the fairness
    theorems hold whatever it says. *)
Definition burst_h {A : Type} (cont : nat -> list A -> bool) : nat -> list A -> nat :=
  fun n q => if cont n q then pred (length q) else 0.

(** A burst of at most [B] steps, then the oldest pending state: [kpick (S B)] with the
    heuristic [burst_h cont]. *)
Definition burst_pick {A : Type} (B : nat) (cont : nat -> list A -> bool) : nat -> list A -> nat :=
  kpick (S B) (burst_h cont).
