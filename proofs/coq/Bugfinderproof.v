(** * Correctness of the paper's bug finder without pruning: relatively sound bug
    discovery (Theorem 3.5), relatively complete bug discovery (Theorem 3.6) and sound
    termination of the bug finder (Theorem 3.7).  The same theorems for the search with
    pruning are in [Pruneproof.v], and for the classification the Go engine uses in
    [Engineproof.v]. *)

From Coq Require Import List Arith Lia.
From Certsym Require Import Syntax Concrete Concreteproof Symbolic Symbolicproof
  Expand Expandproof Run Runproof Bugfinder.
Import ListNotations.

Lemma find_bugs_bug : forall ask p n t,
  find_bugs ask p n = BugFound t ->
  run (init p) n = Some t /\ is_error (prog t) = true /\ ask (pc t) <> Some false.
Proof.
  intros ask p n t H. unfold find_bugs, classify in H.
  destruct (run (init p) n) as [t'|]; [|discriminate].
  destruct (is_error (prog t')) eqn:He; [|discriminate].
  destruct (ask (pc t')) as [[|]|] eqn:Ha; inversion H; subst; repeat split; congruence.
Qed.

Lemma find_bugs_finished : forall ask p n,
  find_bugs ask p n = Finished <-> run (init p) n = None.
Proof.
  intros ask p n. unfold find_bugs, classify.
  destruct (run (init p) n) as [t|]; [|split; reflexivity].
  split; [|discriminate].
  destruct (is_error (prog t)); [destruct (ask (pc t)) as [[|]|]|]; discriminate.
Qed.

(** Theorem 3.5 (relatively sound bug discovery): every reported state is a potential bug of
    [p] (a reachable error state) and every one of its concretizations is a concrete
    bug of [p].  This holds for any oracle. *)
Theorem find_bugs_relative_soundness : forall ask p n t,
  find_bugs ask p n = BugFound t -> potential_bug p t /\ ValidBug p t.
Proof.
  intros ask p n t H. destruct (find_bugs_bug ask p n t H) as (H1 & H2 & _).
  destruct (run_sound _ _ _ H1) as (t0 & [<-|[]] & H3).
  assert (potential_bug p t) as Hp by (split; assumption).
  split; [assumption|]. apply potential_bug_valid. assumption.
Qed.

(** With a sound oracle that answered [Some true], the report is backed by a real
    bug of [p]. *)
Theorem find_bugs_sound_sat : forall ask p n t,
  oracle_sound ask -> find_bugs ask p n = BugFound t -> ask (pc t) = Some true ->
  exists c, IsBug p c /\ Concrete t c.
Proof.
  intros ask p n t [Ht _] H Ha.
  destruct (find_bugs_relative_soundness ask p n t H) as [Hp Hv].
  destruct (Ht _ Ha) as [V HV].
  destruct t as [[phi ss] q].
  exists (compose V ss, q).
  assert (Concrete (phi, ss, q) (compose V ss, q)) as Hc.
  { exists V. simpl. refine (conj HV (conj _ eq_refl)). split; intros; reflexivity. }
  split; [apply Hv; exact Hc|exact Hc].
Qed.

(** Theorem 3.7 (sound termination of the bug finder): once [Finished] is emitted, only [Finished]
    follows ... *)
Theorem find_bugs_sound_termination : forall ask p n,
  find_bugs ask p n = Finished -> forall m, n <= m -> find_bugs ask p m = Finished.
Proof.
  intros ask p n H m Hm. apply find_bugs_finished. apply find_bugs_finished in H.
  exact (run_sound_termination _ n H m Hm).
Qed.

(** Theorem 3.6 (relatively complete bug discovery): with a sound oracle, every concrete bug
    of [p] is a concretization of some state eventually reported. *)
Theorem find_bugs_relative_completeness : forall ask p c,
  oracle_sound ask -> IsBug p c ->
  exists n t, find_bugs ask p n = BugFound t /\ Concrete t c.
Proof.
  intros ask p c [_ Hf] Hbug.
  apply is_bug_iff in Hbug. destruct Hbug as (t & [Hr He] & Hc).
  destruct (run_complete (init p) (sym_init p) t (or_introl eq_refl) Hr) as [n Hn].
  exists n, t. split; [|exact Hc].
  unfold find_bugs, classify. rewrite Hn, He.
  destruct (ask (pc t)) as [[|]|] eqn:Ha; try reflexivity.
  exfalso. destruct Hc as [V HV]. destruct t as [[phi ss] q]. simpl in Ha, HV.
  exact (Hf _ Ha V (proj1 HV)).
Qed.

(** ... and, with a sound oracle, [Finished] at [n] means that every concrete bug of
    [p] was reported (as a concretization) before [n]: a program for which the
    stream finishes without any [BugFound] has no bug. *)
Theorem find_bugs_finished_complete : forall ask p n,
  oracle_sound ask -> find_bugs ask p n = Finished ->
  forall c, IsBug p c -> exists m t, m < n /\ find_bugs ask p m = BugFound t /\ Concrete t c.
Proof.
  intros ask p n Ho Hn c Hc.
  destruct (find_bugs_relative_completeness ask p c Ho Hc) as (m & t & H1 & H2).
  exists m, t. split; [|split; assumption].
  destruct (Nat.lt_ge_cases m n) as [Hlt|Hge]; [assumption|].
  rewrite (find_bugs_sound_termination ask p n Hn m Hge) in H1. discriminate.
Qed.

Corollary find_bugs_finished_no_bug : forall ask p n,
  oracle_sound ask -> find_bugs ask p n = Finished ->
  (forall m t, m < n -> find_bugs ask p m <> BugFound t) -> ~ has_bug p.
Proof.
  intros ask p n Ho Hn Hnone [c Hc].
  destruct (find_bugs_finished_complete ask p n Ho Hn c Hc) as (m & t & H1 & H2 & _).
  exact (Hnone m t H1 H2).
Qed.
