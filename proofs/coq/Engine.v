(** * The bug finder that ships: the status stream and the verdict of the Go engine
    (engine/bugfinder.go: methods [Next], [FindBugs] and [finish] of [engine.Engine];
    engine/search.go: [NextState]).

    What is modelled, step by step as Go does it:
    - the run stream is the pruned search [Prune.prun] when pruning is on (the
      default) and the same search with the oracle [never] under [--no-prune]; the
      oracle is a family [ask n], the answers at iteration [n] (see [Prune.v]);
    - a state that is not an error state is [Pending];
    - with [--all-bugs], an error state whose error (Go: its [spec.Fail], that is its
      statement and kind) was already reported is [Pending], without a query;
    - otherwise the oracle is asked about the path condition: [Some true] gives
      [BugFound], [Some false] gives [Pending] (in Go, reachable only without pruning), and
      [None] gives [Pending] with the state recorded (Go: appended to
      [unknownErrors]); this last case is the status [GUnknown t] below;
    - the verdict of a finite prefix is computed as [finish] does: [bug] if a bug was
      reported, else [unknown] if an error state was recorded undecided, else
      [unknown] if the prefix did not reach [Finished] (a bound stopped the run),
      else [safe].

    What is not modelled: the replay of the solver's model on the concrete semantics
    before [BugFound] (justified by [Symbolicproof.BadInput_correct]; a failed replay
    is an internal error in Go, not a status), the Z3 encoding of path conditions
    (the oracle is an abstract family of functions of the path condition), and the bounds
    themselves (a bound only decides where the prefix ends).

    Errors are identified by a key ([errkey]) of the state at position [n] of the run
    stream, a function of [n] and of the state.  The Coq program counter does not carry
    the identity of a [fail] statement, but Go's key (the [spec.Fail] that [ErrorOf]
    returns for the state Go produces at position [n]) is a function of the position, so
    it is an instance without any assumption; a key of the symbolic state alone is another.
    The theorems hold for every key function.

    Theorem 3.8 (Fig. 10 of the paper) is stated with [fig10], a fuel-bounded
    transcription of the paper's [has_bug].  Proofs in [Engineproof.v]. *)

From Coq Require Import List Bool.
From Certsym Require Import Syntax Concrete Symbolic Expand Run Bugfinder Prune.
Import ListNotations.

(** ** The oracle: one that decides every query *)

Definition oracle_decides (ask : bexpr -> option bool) : Prop :=
  oracle_sound ask /\ forall phi, ask phi <> None.

(** ** Modes and error keys *)

(** The command-line modes the model covers: pruning on (default) or off
    ([--no-prune]); first bug only (default) or each error once ([--all-bugs]). *)
Record mode : Type := Mode { prune : bool; all_bugs : bool }.

(** The identity of an error: a key of the error state at a given position of the
    stream, with decidable equality. *)
Record errkey : Type := ErrKey {
  key_t : Type;
  key : nat -> sym_state -> key_t;
  key_dec : forall a b : key_t, {a = b} + {a <> b}
}.

(** The oracle used for pruning. *)
Definition prune_oracle (m : mode) (ask : bexpr -> option bool) : bexpr -> option bool :=
  if prune m then ask else never.

(** The run stream of the engine on program [p]; [ask n] are the oracle's answers at
    iteration [n] (see [Prune.v]). *)
Definition grun (m : mode) (ask : nat -> bexpr -> option bool) (p : stmt)
    : nat -> option sym_state :=
  prun (fun n => prune_oracle m (ask n)) (init p).

(** ** Statuses *)

(** Go's status messages; [GUnknown t] is Go's [Pending] for an error state whose
    query was undecided, recorded for the verdict. *)
Inductive gstatus : Type :=
  | GPending
  | GUnknown (t : sym_state)
  | GBugFound (t : sym_state)
  | GFinished.

(** The paper's status of a Go status (what the user sees in the stream). *)
Definition to_status (g : gstatus) : status :=
  match g with
  | GBugFound t => BugFound t
  | GFinished => Finished
  | GPending | GUnknown _ => Pending
  end.

(** Classification of element [n] of the run stream, given the keys already reported
    ([seen]). *)
Definition gclassify (E : errkey) (ask : bexpr -> option bool) (seen : list (key_t E))
    (n : nat) (o : option sym_state) : gstatus :=
  match o with
  | None => GFinished
  | Some t =>
      if is_error (prog t) then
        if in_dec (key_dec E) (key E n t) seen then GPending
        else
          match ask (pc t) with
          | Some true => GBugFound t
          | Some false => GPending
          | None => GUnknown t
          end
      else GPending
  end.

(** The keys reported before iteration [n] (Go: the map [reported]; filled only
    with [--all-bugs]). *)
Fixpoint seen (E : errkey) (m : mode) (ask : nat -> bexpr -> option bool) (p : stmt) (n : nat)
    : list (key_t E) :=
  match n with
  | O => []
  | S n' =>
      let s := seen E m ask p n' in
      match gclassify E (ask n') s n' (grun m ask p n') with
      | GBugFound t => if all_bugs m then key E n' t :: s else s
      | _ => s
      end
  end.

(** The status stream of the engine (Go: the [n]-th value of [Next]). *)
Definition gfind (E : errkey) (m : mode) (ask : nat -> bexpr -> option bool) (p : stmt) (n : nat)
    : gstatus :=
  gclassify E (ask n) (seen E m ask p n) n (grun m ask p n).

(** ** Verdicts *)

Inductive verdict : Type := VSafe | VBug | VUnknown.

Definition is_bugfound (g : gstatus) : bool :=
  match g with GBugFound _ => true | _ => false end.
Definition is_unknown (g : gstatus) : bool :=
  match g with GUnknown _ => true | _ => false end.
Definition is_finished (g : gstatus) : bool :=
  match g with GFinished => true | _ => false end.

(** The verdict of a list of statuses, as [finish] computes it. *)
Definition verdict_of (l : list gstatus) : verdict :=
  if existsb is_bugfound l then VBug
  else if existsb is_unknown l then VUnknown
  else if existsb is_finished l then VSafe
  else VUnknown.

(** The first [n] statuses of the stream. *)
Definition gprefix (E : errkey) (m : mode) (ask : nat -> bexpr -> option bool) (p : stmt) (n : nat)
    : list gstatus :=
  map (gfind E m ask p) (seq 0 n).

(** The verdict after the first [n] statuses (Go: the verdict of a run that stopped,
    for whatever reason, after [n] messages). *)
Definition gverdict (E : errkey) (m : mode) (ask : nat -> bexpr -> option bool) (p : stmt) (n : nat)
    : verdict :=
  verdict_of (gprefix E m ask p n).

(** ** Fig. 10 of the paper: [has_bug], with fuel

    [fig10 is_sat s i fuel] iterates [report] over the elements [i], [i+1], ... of
    the status stream [s], at most [fuel] of them: [Some YES] when a [BugFound] with a
    path condition that [is_sat] accepts is met, [Some NO] when [Finished] is met,
    [None] when the fuel runs out first (the paper's [has_bug] has not answered yet).
    "has_bug p = YES" reads: [exists fuel, fig10 is_sat (stream p) 0 fuel = Some YES]. *)
Inductive answer : Type := YES | NO.

Fixpoint fig10 (is_sat : bexpr -> bool) (s : nat -> status) (i fuel : nat) : option answer :=
  match fuel with
  | O => None
  | S f =>
      match s i with
      | BugFound t => if is_sat (pc t) then Some YES else fig10 is_sat s (S i) f
      | Finished => Some NO
      | Pending => fig10 is_sat s (S i) f
      end
  end.

(** A satisfiability test that decides. *)
Definition is_sat_correct (is_sat : bexpr -> bool) : Prop :=
  forall phi, is_sat phi = true <-> exists V, sat V phi.
