(** * Correctness of the bug finder that ships ([Engine.v]): Theorems 3.5-3.7 for the
    Go status stream (pruning, undecided queries, [--all-bugs]), per-error reporting,
    the verdict, and Theorem 3.8 (T-soundness and T-completeness, Fig. 10). *)

From Coq Require Import List Bool Arith Lia.
From Certsym Require Import Syntax Concrete Concreteproof Symbolic Symbolicproof
  Expand Expandproof Run Runproof Bugfinder Prune Pruneproof Engine.
Import ListNotations.

(** ** The run stream of the engine *)

Lemma never_sound : oracle_sound never.
Proof. split; intros phi H; discriminate H. Qed.

Lemma decides_sound : forall ask : nat -> bexpr -> option bool,
  (forall i, oracle_decides (ask i)) -> forall i, oracle_sound (ask i).
Proof. intros ask H i. exact (proj1 (H i)). Qed.

Lemma decides_answers : forall ask : nat -> bexpr -> option bool,
  (forall i, oracle_decides (ask i)) -> forall i phi, ask i phi <> None.
Proof. intros ask H i. exact (proj2 (H i)). Qed.

Lemma prune_oracle_sound : forall m ask, oracle_sound ask -> oracle_sound (prune_oracle m ask).
Proof. intros [[|] a] ask H; simpl; [exact H|exact never_sound]. Qed.

Lemma grun_sound : forall m ask p n t, grun m ask p n = Some t -> sym_steps (sym_init p) t.
Proof.
  intros m ask p n t H. destruct (prun_sound _ _ _ _ H) as (t0 & [<-|[]] & H1). exact H1.
Qed.

Lemma grun_complete : forall m ask p t,
  (forall i, oracle_sound (ask i)) -> sym_steps (sym_init p) t -> (exists V, sat V (pc t)) ->
  exists n, grun m ask p n = Some t.
Proof.
  intros m ask p t Ho H Hs.
  exact (prun_complete _ (init p) (sym_init p) t (fun i => prune_oracle_sound m (ask i) (Ho i))
           (or_introl eq_refl) H Hs).
Qed.

Lemma grun_done : forall m ask p n, grun m ask p n = None ->
  forall k, n <= k -> grun m ask p k = None.
Proof. intros m ask p n H k Hk. exact (prun_sound_termination _ _ n H k Hk). Qed.

(** ** Classification *)

Lemma gfind_finished : forall E m ask p n, gfind E m ask p n = GFinished <-> grun m ask p n = None.
Proof.
  intros E m ask p n. unfold gfind, gclassify.
  destruct (grun m ask p n) as [t|]; [|split; reflexivity]. split; [|discriminate].
  destruct (is_error (prog t)); [|discriminate].
  destruct (in_dec _ _ _); [discriminate|]. destruct (ask n (pc t)) as [[|]|]; discriminate.
Qed.

Lemma gfind_bug : forall E m ask p n t, gfind E m ask p n = GBugFound t ->
  grun m ask p n = Some t /\ is_error (prog t) = true /\ ask n (pc t) = Some true /\
  ~ In (key E n t) (seen E m ask p n).
Proof.
  intros E m ask p n t. unfold gfind, gclassify.
  destruct (grun m ask p n) as [t'|]; [|discriminate].
  destruct (is_error (prog t')) eqn:He; [|discriminate].
  destruct (in_dec _ _ _) as [|Hn]; [discriminate|].
  destruct (ask n (pc t')) as [[|]|] eqn:Ha; intros H; inversion H; subst; auto.
Qed.

Lemma gfind_unknown : forall E m ask p n t, gfind E m ask p n = GUnknown t ->
  grun m ask p n = Some t /\ is_error (prog t) = true /\ ask n (pc t) = None.
Proof.
  intros E m ask p n t. unfold gfind, gclassify.
  destruct (grun m ask p n) as [t'|]; [|discriminate].
  destruct (is_error (prog t')) eqn:He; [|discriminate].
  destruct (in_dec _ _ _) as [|Hn]; [discriminate|].
  destruct (ask n (pc t')) as [[|]|] eqn:Ha; intros H; inversion H; subst; auto.
Qed.

(** An error state of the run stream is reported, recorded undecided, refuted by the
    oracle, or its error was already reported. *)
Lemma gfind_error_state : forall E m ask p n t,
  grun m ask p n = Some t -> is_error (prog t) = true ->
  gfind E m ask p n = GBugFound t \/ gfind E m ask p n = GUnknown t \/
  ask n (pc t) = Some false \/ In (key E n t) (seen E m ask p n).
Proof.
  intros E m ask p n t Hr He. unfold gfind, gclassify. rewrite Hr, He.
  destruct (in_dec _ _ _) as [Hi|Hi]; [auto|].
  destruct (ask n (pc t)) as [[|]|]; auto.
Qed.

Lemma seen_S : forall E m ask p n,
  seen E m ask p (S n) =
  match gfind E m ask p n with
  | GBugFound t => if all_bugs m then key E n t :: seen E m ask p n else seen E m ask p n
  | _ => seen E m ask p n
  end.
Proof. reflexivity. Qed.

Lemma seen_incl : forall E m ask p n k, In k (seen E m ask p n) -> In k (seen E m ask p (S n)).
Proof.
  intros E m ask p n k H. rewrite seen_S.
  destruct (gfind E m ask p n); try exact H. destruct (all_bugs m); [right|]; exact H.
Qed.

(** The keys seen before [n] are exactly those of the bugs reported before [n], and only
    with [--all-bugs]. *)
Lemma seen_spec : forall E m ask p n k,
  In k (seen E m ask p n) <->
  all_bugs m = true /\ exists j t, j < n /\ gfind E m ask p j = GBugFound t /\ key E j t = k.
Proof.
  intros E m ask p n; induction n as [|n IH]; intros k.
  - simpl. split; [intros []|]. intros (_ & j & t & Hj & _). lia.
  - split.
    + rewrite seen_S. intros H.
      destruct (gfind E m ask p n) eqn:Hg;
        try (apply IH in H; destruct H as (Ha & j & t' & Hj & H1 & H2);
             split; [exact Ha|exists j, t'; split; [lia|auto]]).
      destruct (all_bugs m) eqn:Ha.
      * destruct H as [<-|H].
        -- split; [reflexivity|]. exists n, t. auto.
        -- apply IH in H. destruct H as (_ & j & t' & Hj & H1 & H2).
           split; [reflexivity|]. exists j, t'. split; [lia|auto].
      * apply IH in H. destruct H as (Ha' & _). discriminate.
    + intros (Ha & j & t & Hj & H1 & H2).
      destruct (Nat.eq_dec j n) as [->|Hne].
      * rewrite seen_S, H1, Ha. left. exact H2.
      * apply seen_incl. apply IH. split; [exact Ha|]. exists j, t. split; [lia|auto].
Qed.

(** ** Theorems 3.5-3.7 for the engine's stream *)

(** Theorem 3.5 (relatively sound bug discovery), for the engine and any oracle: every
    [BugFound t] is a potential bug whose concretizations are all bugs, and the oracle
    answered "satisfiable" about it. *)
Theorem gfind_relative_soundness : forall E m ask p n t,
  gfind E m ask p n = GBugFound t ->
  potential_bug p t /\ ValidBug p t /\ ask n (pc t) = Some true.
Proof.
  intros E m ask p n t H. destruct (gfind_bug E m ask p n t H) as (H1 & H2 & H3 & _).
  pose proof (grun_sound m ask p n t H1) as Hr.
  assert (potential_bug p t) as Hp by (split; assumption).
  split; [exact Hp|]. split; [apply potential_bug_valid; exact Hp|exact H3].
Qed.

(** With a sound oracle, every [BugFound t] has a satisfiable path condition, all its
    concretizations are bugs, and it has at least one: a real bug of [p]. *)
Theorem gfind_bug_sat : forall E m ask p n t,
  (forall i, oracle_sound (ask i)) -> gfind E m ask p n = GBugFound t ->
  (exists V, sat V (pc t)) /\ (forall c, Concrete t c -> IsBug p c) /\
  exists c, Concrete t c /\ IsBug p c.
Proof.
  intros E m ask p n t Ho H. destruct (Ho n) as [Ht _].
  destruct (gfind_relative_soundness E m ask p n t H) as (_ & Hv & Ha).
  destruct (Ht _ Ha) as [V HV].
  split; [exists V; exact HV|]. split; [exact Hv|].
  destruct t as [[phi ss] q]. exists (compose V ss, q).
  assert (Concrete (phi, ss, q) (compose V ss, q)) as Hc.
  { exists V. simpl. refine (conj HV (conj _ eq_refl)). split; intros; reflexivity. }
  split; [exact Hc|apply Hv; exact Hc].
Qed.

(** Every error state recorded undecided (the cause of an [unknown] verdict) is a
    potential bug all of whose concretizations are bugs; only the satisfiability of its
    path condition is open. *)
Theorem gfind_unknown_valid : forall E m ask p n t,
  gfind E m ask p n = GUnknown t -> potential_bug p t /\ ValidBug p t.
Proof.
  intros E m ask p n t H. destruct (gfind_unknown E m ask p n t H) as (H1 & H2 & _).
  assert (potential_bug p t) as Hp by (split; [exact (grun_sound m ask p n t H1)|exact H2]).
  split; [exact Hp|apply potential_bug_valid; exact Hp].
Qed.

(** Theorem 3.7 (sound termination of the bug finder), for the engine. *)
Theorem gfind_sound_termination : forall E m ask p n,
  gfind E m ask p n = GFinished -> forall k, n <= k -> gfind E m ask p k = GFinished.
Proof.
  intros E m ask p n H k Hk. apply gfind_finished. apply gfind_finished in H.
  exact (grun_done m ask p n H k Hk).
Qed.

(** Theorem 3.6 (relatively complete bug discovery), for the engine and a sound oracle:
    every concrete bug is a concretization of a reachable error state [t] that appears
    in the stream, where it is reported, or recorded undecided, or its error was
    already reported earlier (only with [--all-bugs]). *)
Theorem gfind_relative_completeness : forall E m ask p c,
  (forall i, oracle_sound (ask i)) -> IsBug p c ->
  exists n t, Concrete t c /\ potential_bug p t /\ grun m ask p n = Some t /\
    (gfind E m ask p n = GBugFound t \/ gfind E m ask p n = GUnknown t \/
     (all_bugs m = true /\
      exists j t', j < n /\ gfind E m ask p j = GBugFound t' /\ key E j t' = key E n t)).
Proof.
  intros E m ask p c Ho Hbug.
  apply is_bug_iff in Hbug. destruct Hbug as (t & [Hr He] & Hc).
  assert (exists V, sat V (pc t)) as [V HV].
  { destruct Hc as [V HV]. exists V. destruct t as [[phi ss] q]. exact (proj1 HV). }
  destruct (grun_complete m ask p t Ho Hr (ex_intro _ V HV)) as [n Hn].
  exists n, t. split; [exact Hc|]. split; [split; assumption|]. split; [exact Hn|].
  destruct (gfind_error_state E m ask p n t Hn He) as [H|[H|[H|H]]]; auto.
  - exfalso. exact (proj2 (Ho n) _ H V HV).
  - right; right. apply seen_spec in H. exact H.
Qed.

(** ** Per-error reporting ([--all-bugs]) and deciding oracles *)

(** With an oracle that decides, the error of every reachable error state with a
    satisfiable path condition is reported (in every mode): the state appears at some
    position [k] of the run stream, and a bug with the same key is reported at a position
    [n <= k] (at [k] itself, the state itself, when its error was not reported before). *)
Theorem gfind_every_error_reported : forall E m ask p t,
  (forall i, oracle_decides (ask i)) -> potential_bug p t -> (exists V, sat V (pc t)) ->
  exists k n t', grun m ask p k = Some t /\ n <= k /\
    gfind E m ask p n = GBugFound t' /\ key E n t' = key E k t.
Proof.
  intros E m ask p t HD [Hr He] [V HV].
  pose proof (decides_sound ask HD) as Ho. pose proof (decides_answers ask HD) as Hd.
  destruct (grun_complete m ask p t Ho Hr (ex_intro _ V HV)) as [k Hk].
  exists k.
  destruct (gfind_error_state E m ask p k t Hk He) as [H|[H|[H|H]]].
  - exists k, t. auto.
  - exfalso. destruct (gfind_unknown E m ask p k t H) as (_ & _ & Ha). exact (Hd _ _ Ha).
  - exfalso. exact (proj2 (Ho k) _ H V HV).
  - apply seen_spec in H. destruct H as (_ & j & t' & Hj & H1 & H2).
    exists j, t'. repeat split; [exact Hk|lia|exact H1|exact H2].
Qed.

(** Per-error completeness for concrete bugs: with an oracle that decides, every concrete
    bug is a concretization of a reachable error state of the stream whose error is
    reported. *)
Corollary gfind_every_bug_error_reported : forall E m ask p c,
  (forall i, oracle_decides (ask i)) -> IsBug p c ->
  exists t k n t', Concrete t c /\ potential_bug p t /\ grun m ask p k = Some t /\ n <= k /\
    gfind E m ask p n = GBugFound t' /\ key E n t' = key E k t.
Proof.
  intros E m ask p c Hd Hbug.
  apply is_bug_iff in Hbug. destruct Hbug as (t & Hp & Hc).
  assert (exists V, sat V (pc t)) as Hs.
  { destruct Hc as [V HV]. exists V. destruct t as [[phi ss] q]. exact (proj1 HV). }
  destruct (gfind_every_error_reported E m ask p t Hd Hp Hs) as (k & n & t' & H0 & H1 & H2 & H3).
  exists t, k, n, t'. split; [exact Hc|]. split; [exact Hp|]. auto.
Qed.

(** Without [--all-bugs] and with an oracle that decides, every concrete bug is a
    concretization of a state the stream reports. *)
Theorem gfind_complete_first : forall E m ask p c,
  (forall i, oracle_decides (ask i)) -> all_bugs m = false -> IsBug p c ->
  exists n t, gfind E m ask p n = GBugFound t /\ Concrete t c.
Proof.
  intros E m ask p c HD Hm Hbug.
  pose proof (decides_sound ask HD) as Ho. pose proof (decides_answers ask HD) as Hd.
  destruct (gfind_relative_completeness E m ask p c Ho Hbug)
    as (n & t & Hc & _ & Hn & [H|[H|[H _]]]).
  - exists n, t. auto.
  - exfalso. destruct (gfind_unknown E m ask p n t H) as (_ & _ & Ha). exact (Hd _ _ Ha).
  - congruence.
Qed.

(** With [--all-bugs], each error is reported at most once. *)
Theorem gfind_report_once : forall E m ask p n n' t t',
  all_bugs m = true ->
  gfind E m ask p n = GBugFound t -> gfind E m ask p n' = GBugFound t' ->
  key E n t = key E n' t' -> n = n'.
Proof.
  assert (forall E m ask p n n' t t', all_bugs m = true -> n < n' ->
            gfind E m ask p n = GBugFound t -> gfind E m ask p n' = GBugFound t' ->
            key E n t = key E n' t' -> False) as G.
  { intros E m ask p n n' t t' Ha Hlt H H' Hk.
    destruct (gfind_bug E m ask p n' t' H') as (_ & _ & _ & Hn). apply Hn.
    apply seen_spec. split; [exact Ha|]. exists n, t. auto. }
  intros E m ask p n n' t t' Ha H H' Hk.
  destruct (Nat.lt_trichotomy n n') as [Hlt|[Heq|Hgt]]; [|exact Heq|].
  - exfalso. exact (G E m ask p n n' t t' Ha Hlt H H' Hk).
  - exfalso. exact (G E m ask p n' n t' t Ha Hgt H' H (eq_sym Hk)).
Qed.

(** ** The verdict *)

Lemma in_gprefix : forall E m ask p n g,
  In g (gprefix E m ask p n) <-> exists j, j < n /\ gfind E m ask p j = g.
Proof.
  intros E m ask p n g. unfold gprefix. rewrite in_map_iff. split.
  - intros (j & H1 & H2). apply in_seq in H2. exists j. split; [lia|exact H1].
  - intros (j & H1 & H2). exists j. split; [exact H2|]. apply in_seq. lia.
Qed.

Lemma existsb_gprefix : forall E m ask p n f,
  existsb f (gprefix E m ask p n) = true <-> exists j, j < n /\ f (gfind E m ask p j) = true.
Proof.
  intros E m ask p n f. rewrite existsb_exists. split.
  - intros (g & H1 & H2). apply in_gprefix in H1. destruct H1 as (j & Hj & <-). eauto.
  - intros (j & Hj & H). exists (gfind E m ask p j). split; [|exact H].
    apply in_gprefix. eauto.
Qed.

Lemma verdict_bug_iff : forall l, verdict_of l = VBug <-> existsb is_bugfound l = true.
Proof.
  intros l. unfold verdict_of. destruct (existsb is_bugfound l); [split; reflexivity|].
  split; [|discriminate].
  destruct (existsb is_unknown l); [discriminate|]. destruct (existsb is_finished l); discriminate.
Qed.

Lemma verdict_safe_iff : forall l, verdict_of l = VSafe <->
  existsb is_bugfound l = false /\ existsb is_unknown l = false /\ existsb is_finished l = true.
Proof.
  intros l. unfold verdict_of.
  destruct (existsb is_bugfound l), (existsb is_unknown l), (existsb is_finished l);
    split; try discriminate; try (intros (H1 & H2 & H3); discriminate); auto.
Qed.

Lemma not_existsb_gprefix : forall E m ask p n f,
  existsb f (gprefix E m ask p n) = false -> forall j, j < n -> f (gfind E m ask p j) = false.
Proof.
  intros E m ask p n f H j Hj. destruct (f (gfind E m ask p j)) eqn:Hf; [|reflexivity].
  rewrite <- H. symmetry. apply existsb_gprefix. eauto.
Qed.

(** A [bug] verdict means a bug, for any sound oracle. *)
Theorem gverdict_bug : forall E m ask p n,
  (forall i, oracle_sound (ask i)) -> gverdict E m ask p n = VBug -> has_bug p.
Proof.
  intros E m ask p n Ho H. apply verdict_bug_iff, existsb_gprefix in H.
  destruct H as (j & _ & H). destruct (gfind E m ask p j) as [| |t|] eqn:Hg; try discriminate.
  destruct (gfind_bug_sat E m ask p j t Ho Hg) as (_ & _ & c & _ & Hc). exists c. exact Hc.
Qed.

(** A [safe] verdict (the stream reached [Finished], reported no bug and recorded no
    undecided error state) means no bug, for any sound oracle, in every mode. *)
Theorem gverdict_safe : forall E m ask p n,
  (forall i, oracle_sound (ask i)) -> gverdict E m ask p n = VSafe -> ~ has_bug p.
Proof.
  intros E m ask p n Ho H [c Hc]. apply verdict_safe_iff in H. destruct H as (Hb & Hu & Hf).
  apply existsb_gprefix in Hf. destruct Hf as (f & Hfn & Hf).
  assert (gfind E m ask p f = GFinished) as Hfin by (destruct (gfind E m ask p f); simpl in Hf; congruence).
  apply gfind_finished in Hfin.
  pose proof (not_existsb_gprefix E m ask p n _ Hb) as Hb'.
  pose proof (not_existsb_gprefix E m ask p n _ Hu) as Hu'.
  destruct (gfind_relative_completeness E m ask p c Ho Hc)
    as (k & t & _ & _ & Hk & Hcase).
  assert (k < f) as Hkf.
  { destruct (Nat.lt_ge_cases k f) as [Hlt|Hge]; [exact Hlt|].
    rewrite (grun_done m ask p f Hfin k Hge) in Hk. discriminate. }
  destruct Hcase as [H|[H|(_ & j & t' & Hj & H & _)]].
  - specialize (Hb' k ltac:(lia)). rewrite H in Hb'. discriminate.
  - specialize (Hu' k ltac:(lia)). rewrite H in Hu'. discriminate.
  - specialize (Hb' j ltac:(lia)). rewrite H in Hb'. discriminate.
Qed.

(** With an oracle that decides, a program without bugs whose exploration ends gets the
    verdict [safe] once the prefix contains [Finished]. *)
Theorem gverdict_safe_complete : forall E m ask p f n,
  (forall i, oracle_decides (ask i)) -> ~ has_bug p -> gfind E m ask p f = GFinished -> f < n ->
  gverdict E m ask p n = VSafe.
Proof.
  intros E m ask p f n HD Hno Hf Hfn.
  pose proof (decides_sound ask HD) as Ho. pose proof (decides_answers ask HD) as Hd. apply verdict_safe_iff. split; [|split].
  - destruct (existsb is_bugfound (gprefix E m ask p n)) eqn:H; [|reflexivity].
    exfalso. apply Hno. apply (gverdict_bug E m ask p n Ho). apply verdict_bug_iff. exact H.
  - destruct (existsb is_unknown (gprefix E m ask p n)) eqn:H; [|reflexivity].
    exfalso. apply existsb_gprefix in H. destruct H as (j & _ & H).
    destruct (gfind E m ask p j) as [|t| |] eqn:Hg; try discriminate.
    destruct (gfind_unknown E m ask p j t Hg) as (_ & _ & Ha). exact (Hd _ _ Ha).
  - apply existsb_gprefix. exists f. rewrite Hf. auto.
Qed.

(** Once [bug], always [bug]. *)
Lemma gverdict_bug_mono : forall E m ask p n k,
  gverdict E m ask p n = VBug -> n <= k -> gverdict E m ask p k = VBug.
Proof.
  intros E m ask p n k H Hk. apply verdict_bug_iff, existsb_gprefix in H.
  apply verdict_bug_iff, existsb_gprefix. destruct H as (j & Hj & H). exists j. split; [lia|exact H].
Qed.

(** Theorem 3.8 for the engine (T-soundness and T-completeness): with an oracle that
    decides, some prefix of the stream gets the verdict [bug] iff the program has a bug;
    in every mode. *)
Theorem gverdict_T_sound_complete : forall E m ask p,
  (forall i, oracle_decides (ask i)) -> (exists n, gverdict E m ask p n = VBug) <-> has_bug p.
Proof.
  intros E m ask p Hd. split.
  - intros [n H]. exact (gverdict_bug E m ask p n (decides_sound ask Hd) H).
  - intros [c Hc].
    destruct (gfind_every_bug_error_reported E m ask p c Hd Hc)
      as (t & k & n & t' & _ & _ & _ & _ & H & _).
    exists (S n). apply verdict_bug_iff, existsb_gprefix. exists n. rewrite H. auto.
Qed.

(** Theorem 3.8 for the engine, as the issue words it: with an oracle that decides,
    there is an [n] at which the stream reports a bug with a satisfiable path condition
    iff the program has a bug. *)
Theorem gfind_T_sound_complete : forall E m ask p,
  (forall i, oracle_decides (ask i)) ->
  (exists n t, gfind E m ask p n = GBugFound t /\ exists V, sat V (pc t)) <-> has_bug p.
Proof.
  intros E m ask p Hd. split.
  - intros (n & t & H & _). destruct (gfind_bug_sat E m ask p n t (decides_sound ask Hd) H) as (_ & _ & c & _ & Hc).
    exists c. exact Hc.
  - intros [c Hc].
    destruct (gfind_every_bug_error_reported E m ask p c Hd Hc)
      as (t & k & n & t' & _ & _ & _ & _ & H & _).
    exists n, t'. split; [exact H|]. exact (proj1 (gfind_bug_sat E m ask p n t' (decides_sound ask Hd) H)).
Qed.

(** ** Theorem 3.8 (Fig. 10): the paper's [has_bug] over the paper's bug finder, with
    pruning by a sound oracle and a satisfiability test that decides *)

Lemma fig10_yes : forall is_sat s fuel i, fig10 is_sat s i fuel = Some YES ->
  exists n t, i <= n /\ s n = BugFound t /\ is_sat (pc t) = true.
Proof.
  intros is_sat s fuel; induction fuel as [|f IH]; intros i H; simpl in H; [discriminate|].
  destruct (s i) as [|t|] eqn:Hs.
  - destruct (IH (S i) H) as (n & t & H1 & H2). exists n, t. split; [lia|exact H2].
  - destruct (is_sat (pc t)) eqn:Ht.
    + exists i, t. auto.
    + destruct (IH (S i) H) as (n & t' & H1 & H2). exists n, t'. split; [lia|exact H2].
  - discriminate.
Qed.

Lemma fig10_no : forall is_sat s fuel i, fig10 is_sat s i fuel = Some NO ->
  exists n, i <= n /\ s n = Finished /\
    forall k t, i <= k -> k < n -> s k = BugFound t -> is_sat (pc t) = false.
Proof.
  intros is_sat s fuel; induction fuel as [|f IH]; intros i H; simpl in H; [discriminate|].
  destruct (s i) as [|t|] eqn:Hs.
  - destruct (IH (S i) H) as (n & H1 & H2 & H3). exists n. split; [lia|]. split; [exact H2|].
    intros k t Hk Hkn Hsk. destruct (Nat.eq_dec k i) as [->|Hne]; [congruence|].
    apply (H3 k t); [lia|exact Hkn|exact Hsk].
  - destruct (is_sat (pc t)) eqn:Ht; [discriminate|].
    destruct (IH (S i) H) as (n & H1 & H2 & H3). exists n. split; [lia|]. split; [exact H2|].
    intros k t' Hk Hkn Hsk. destruct (Nat.eq_dec k i) as [->|Hne]; [congruence|].
    apply (H3 k t'); [lia|exact Hkn|exact Hsk].
  - exists i. split; [lia|]. split; [exact Hs|]. intros k t Hk Hkn. lia.
Qed.

(** [has_bug] answers [YES] after a [BugFound] with a satisfiable path condition that
    no [Finished] precedes. *)
Lemma fig10_reaches_yes : forall is_sat s k i t,
  s (i + k) = BugFound t -> is_sat (pc t) = true ->
  (forall j, i <= j -> j <= i + k -> s j <> Finished) ->
  fig10 is_sat s i (S k) = Some YES.
Proof.
  intros is_sat s k; induction k as [|k IH]; intros i t Hs Ht Hnf; simpl.
  - rewrite Nat.add_0_r in Hs. rewrite Hs, Ht. reflexivity.
  - destruct (s i) as [|t'|] eqn:Hi.
    + apply (IH (S i) t); [rewrite <- Hs; f_equal; lia|exact Ht|].
      intros j H1 H2. apply Hnf; lia.
    + destruct (is_sat (pc t')); [reflexivity|].
      apply (IH (S i) t); [rewrite <- Hs; f_equal; lia|exact Ht|].
      intros j H1 H2. apply Hnf; lia.
    + exfalso. exact (Hnf i ltac:(lia) ltac:(lia) Hi).
Qed.

(** [has_bug] answers [NO] on a stream that reaches [Finished] without any [BugFound]
    whose path condition [is_sat] accepts. *)
Lemma fig10_reaches_no : forall is_sat s k i,
  s (i + k) = Finished ->
  (forall j t, i <= j -> j < i + k -> s j = BugFound t -> is_sat (pc t) = false) ->
  exists fuel, fig10 is_sat s i fuel = Some NO.
Proof.
  intros is_sat s k; induction k as [|k IH]; intros i Hs Hb.
  - exists 1. simpl. rewrite Nat.add_0_r in Hs. rewrite Hs. reflexivity.
  - destruct (s i) as [|t|] eqn:Hi.
    + destruct (IH (S i)) as [fuel Hf]; [rewrite <- Hs; f_equal; lia|intros j t H1 H2; apply Hb; lia|].
      exists (S fuel). simpl. rewrite Hi. exact Hf.
    + destruct (IH (S i)) as [fuel Hf]; [rewrite <- Hs; f_equal; lia|intros j t' H1 H2; apply Hb; lia|].
      exists (S fuel). simpl. rewrite Hi, (Hb i t ltac:(lia) ltac:(lia) Hi). exact Hf.
    + exists 1. simpl. rewrite Hi. reflexivity.
Qed.

(** Theorem 3.8 (T-soundness and T-completeness), Fig. 10 over the paper's bug finder
    with pruning: for any sound pruning oracle [ask] (for instance [never]: no pruning)
    and a satisfiability test [is_sat] that decides, [has_bug p = YES] iff [HasBug p]. *)
Theorem fig10_T_sound_complete : forall ask is_sat p,
  (forall i, oracle_sound (ask i)) -> is_sat_correct is_sat ->
  (exists fuel, fig10 is_sat (pfind_bugs ask p) 0 fuel = Some YES) <-> has_bug p.
Proof.
  intros ask is_sat p Ho Hsat. split.
  - intros [fuel H]. destruct (fig10_yes _ _ fuel 0 H) as (n & t & _ & H1 & H2).
    apply Hsat in H2. destruct H2 as [V HV].
    destruct (pfind_bugs_relative_soundness ask p n t H1) as [_ Hv].
    destruct t as [[phi ss] q]. exists (compose V ss, q). apply Hv.
    exists V. simpl. refine (conj HV (conj _ eq_refl)). split; intros; reflexivity.
  - intros [c Hc].
    destruct (pfind_bugs_relative_completeness ask p c Ho Hc) as (n & t & H1 & H2).
    exists (S n). apply (fig10_reaches_yes is_sat _ n 0 t); [exact H1| |].
    + apply Hsat. destruct H2 as [V HV]. exists V. destruct t as [[phi ss] q]. exact (proj1 HV).
    + intros j _ Hj Hf. rewrite (pfind_bugs_sound_termination ask p j Hf n Hj) in H1.
      discriminate.
Qed.

(** [has_bug p = NO] means no bug (sound pruning oracle, deciding [is_sat]); and
    [has_bug] does answer [NO] on a program without bugs whose exploration ends. *)
Theorem fig10_no_iff_finished_safe : forall ask is_sat p,
  (forall i, oracle_sound (ask i)) -> is_sat_correct is_sat ->
  ((exists fuel, fig10 is_sat (pfind_bugs ask p) 0 fuel = Some NO) <->
   ~ has_bug p /\ exists n, pfind_bugs ask p n = Finished).
Proof.
  intros ask is_sat p Ho Hsat. split.
  - intros [fuel H]. destruct (fig10_no _ _ fuel 0 H) as (n & _ & Hn & Hb).
    split; [|exists n; exact Hn].
    intros [c Hc].
    destruct (pfind_bugs_relative_completeness ask p c Ho Hc) as (k & t & H1 & H2).
    destruct (Nat.lt_ge_cases k n) as [Hlt|Hge].
    + pose proof (Hb k t ltac:(lia) Hlt H1) as Hf.
      assert (is_sat (pc t) = true) as Ht.
      { apply Hsat. destruct H2 as [V HV]. exists V. destruct t as [[phi ss] q]. exact (proj1 HV). }
      congruence.
    + rewrite (pfind_bugs_sound_termination ask p n Hn k Hge) in H1. discriminate.
  - intros [Hno [n Hn]]. apply (fig10_reaches_no is_sat _ n 0); [exact Hn|].
    intros j t _ _ Hj. destruct (is_sat (pc t)) eqn:Ht; [|reflexivity].
    exfalso. apply Hno. apply Hsat in Ht. destruct Ht as [V HV].
    destruct (pfind_bugs_relative_soundness ask p j t Hj) as [_ Hv].
    destruct t as [[phi ss] q]. exists (compose V ss, q). apply Hv.
    exists V. simpl. refine (conj HV (conj _ eq_refl)). split; intros; reflexivity.
Qed.

(** Theorem 3.8 as a property of the paper's stream with pruning: for any sound oracle,
    there is an [n] at which the stream reports a bug with a satisfiable path condition
    iff the program has a bug. *)
Theorem pfind_T_sound_complete : forall ask p,
  (forall i, oracle_sound (ask i)) ->
  (exists n t, pfind_bugs ask p n = BugFound t /\ exists V, sat V (pc t)) <-> has_bug p.
Proof.
  intros ask p Ho. split.
  - intros (n & t & H & V & HV).
    destruct (pfind_bugs_relative_soundness ask p n t H) as [_ Hv].
    destruct t as [[phi ss] q]. exists (compose V ss, q). apply Hv.
    exists V. simpl. refine (conj HV (conj _ eq_refl)). split; intros; reflexivity.
  - intros [c Hc].
    destruct (pfind_bugs_relative_completeness ask p c Ho Hc) as (n & t & H1 & H2).
    exists n, t. split; [exact H1|].
    destruct H2 as [V HV]. exists V. destruct t as [[phi ss] q]. exact (proj1 HV).
Qed.

(** With an oracle that decides, the verdict [unknown] means only that the prefix stops
    before [Finished] and before any bug (a bound stopped the run). *)
Theorem gverdict_unknown_decides : forall E m ask p n,
  (forall i, oracle_decides (ask i)) -> gverdict E m ask p n = VUnknown ->
  forall j, j < n -> gfind E m ask p j <> GFinished /\ forall t, gfind E m ask p j <> GBugFound t.
Proof.
  intros E m ask p n HD H j Hj.
  pose proof (decides_sound ask HD) as Ho. pose proof (decides_answers ask HD) as Hd. unfold gverdict, verdict_of in H.
  destruct (existsb is_bugfound (gprefix E m ask p n)) eqn:Hb; [discriminate|].
  assert (existsb is_unknown (gprefix E m ask p n) = false) as Hu.
  { destruct (existsb is_unknown (gprefix E m ask p n)) eqn:Hu; [|reflexivity].
    apply existsb_gprefix in Hu. destruct Hu as (k & _ & Hk).
    destruct (gfind E m ask p k) as [|t| |] eqn:Hg; try discriminate.
    destruct (gfind_unknown E m ask p k t Hg) as (_ & _ & Ha). exfalso. exact (Hd _ _ Ha). }
  rewrite Hu in H. destruct (existsb is_finished (gprefix E m ask p n)) eqn:Hf; [discriminate|].
  split.
  - intros Hg. pose proof (not_existsb_gprefix E m ask p n _ Hf j Hj) as Hn.
    rewrite Hg in Hn. discriminate.
  - intros t Hg. pose proof (not_existsb_gprefix E m ask p n _ Hb j Hj) as Hn.
    rewrite Hg in Hn. discriminate.
Qed.
