(** * Properties of the pruned search [prun]: Lemma 3.1 and Theorems 3.2-3.4 of the
    paper for the search with pruning, and Theorems 3.5-3.7 for the paper's bug finder
    run over it.  The oracle contract is a premise of each theorem that needs it. *)

From Coq Require Import List Arith Lia.
From Certsym Require Import Syntax Concrete Concreteproof Symbolic Symbolicproof
  Expand Expandproof Run Runproof Bugfinder Prune.
Import ListNotations.

(** ** The queue with an iteration-dependent successor function *)

Lemma tqueue_add : forall A n m (succ : nat -> A -> list A) l,
  tqueue succ (n + m) l = tqueue (fun i => succ (n + i)) m (tqueue succ n l).
Proof.
  intros A n; induction n as [|n IH]; intros m succ l; simpl; [reflexivity|].
  apply (IH m (fun i => succ (S i))).
Qed.

Lemma tqueue_S_r : forall A (succ : nat -> A -> list A) n l,
  tqueue succ (S n) l = bfs_step (succ n) (tqueue succ n l).
Proof.
  intros A succ n l. rewrite <- Nat.add_1_r, tqueue_add. simpl. rewrite Nat.add_0_r.
  reflexivity.
Qed.

Lemma tqueue_nil : forall A n (succ : nat -> A -> list A), tqueue succ n [] = [].
Proof. intros A n; induction n as [|n IH]; intros succ; simpl; [reflexivity|apply IH]. Qed.

(** After [length l1] iterations the queue [l1 ++ l2] starts with [l2]. *)
Lemma tqueue_prefix : forall A (l1 : list A) succ l2,
  exists l3, tqueue succ (length l1) (l1 ++ l2) = l2 ++ l3.
Proof.
  intros A l1; induction l1 as [|t l1 IH]; intros succ l2.
  - exists []. rewrite app_nil_r. reflexivity.
  - simpl. rewrite <- app_assoc.
    destruct (IH (fun i => succ (S i)) (l2 ++ succ 0 t)) as [l3 H].
    exists (succ 0 t ++ l3). rewrite H, app_assoc. reflexivity.
Qed.

(** Fairness, for every family of successor functions: an element in the queue at
    iteration [n] is taken from the front at some iteration [m >= n], and the
    successors [succ m t] are then queued. *)
Theorem tqueue_fair : forall A (succ : nat -> A -> list A) l n t,
  In t (tqueue succ n l) ->
  exists m rest, n <= m /\ tqueue succ m l = t :: rest /\
                 tqueue succ (S m) l = rest ++ succ m t.
Proof.
  intros A succ l n t H.
  apply in_split in H. destruct H as (l1 & l2 & H).
  destruct (tqueue_prefix A l1 (fun i => succ (n + i)) (t :: l2)) as [l3 H3].
  exists (n + length l1), (l2 ++ l3). split; [lia|].
  assert (tqueue succ (n + length l1) l = t :: l2 ++ l3) as Hm.
  { rewrite tqueue_add, H, H3. reflexivity. }
  split; [exact Hm|]. rewrite tqueue_S_r, Hm. reflexivity.
Qed.

(** For a constant family, [tqueue] is the queue of [Run.v]. *)
Lemma tqueue_const : forall A (succ : A -> list A) n l,
  tqueue (fun _ => succ) n l = queue succ n l.
Proof. intros A succ n; induction n as [|n IH]; intros l; simpl; [reflexivity|apply IH]. Qed.

Lemma tqueue_sound : forall A (R : A -> A -> Prop) (succ : nat -> A -> list A),
  (forall i x y, In y (succ i x) -> R x y) ->
  forall n l t, In t (tqueue succ n l) -> exists t0, In t0 l /\ star R t0 t.
Proof.
  intros A R succ Hs n. revert succ Hs.
  induction n as [|n IH]; intros succ Hs l t H; simpl in H.
  - exists t. split; [assumption|constructor].
  - destruct l as [|a l]; [rewrite tqueue_nil in H; destruct H|].
    simpl in H. destruct (IH (fun i => succ (S i)) (fun i => Hs (S i)) _ _ H) as (t0 & H1 & H2).
    apply in_app_or in H1. destruct H1 as [H1|H1].
    + exists t0. split; [right; assumption|assumption].
    + exists a. split; [left; reflexivity|]. econstructor; [apply (Hs 0); exact H1|exact H2].
Qed.

Lemma tnth_in : forall A (succ : nat -> A -> list A) l n t,
  tnth succ l n = Some t -> In t (tqueue succ n l).
Proof.
  intros A succ l n t H. unfold tnth in H.
  destruct (tqueue succ n l); inversion H; left; reflexivity.
Qed.

(** Everything reachable, through a relation that every [succ i] contains, from a
    queued element is eventually at the front. *)
Lemma tqueue_complete : forall A (R : A -> A -> Prop) (succ : nat -> A -> list A),
  (forall i x y, R x y -> In y (succ i x)) ->
  forall t0 t, star R t0 t ->
  forall l n, In t0 (tqueue succ n l) -> exists m, n <= m /\ tnth succ l m = Some t.
Proof.
  intros A R succ Hc t0 t H. induction H as [a|a b c Hab Hbc IH]; intros l n Hin.
  - destruct (tqueue_fair A succ l n a Hin) as (m & rest & H1 & H2 & _).
    exists m. split; [exact H1|]. unfold tnth. rewrite H2. reflexivity.
  - destruct (tqueue_fair A succ l n a Hin) as (m & rest & H1 & H2 & H3).
    assert (In b (tqueue succ (S m) l)) as Hb.
    { rewrite H3. apply in_or_app. right. apply Hc. assumption. }
    destruct (IH l (S m) Hb) as (k & H4 & H5). exists k. split; [lia|assumption].
Qed.

Lemma tnth_done : forall A (succ : nat -> A -> list A) l n,
  tnth succ l n = None -> forall m, n <= m -> tnth succ l m = None.
Proof.
  intros A succ l n H m Hm. unfold tnth in *.
  assert (tqueue succ n l = []) as E by (destruct (tqueue succ n l); [reflexivity|discriminate]).
  replace m with (n + (m - n)) by lia. rewrite tqueue_add, E, tqueue_nil. reflexivity.
Qed.

(** ** Steps of the pruned search *)

(** One step of the pruned search: a symbolic step to a successor that is kept. *)
Definition pstep (ask : bexpr -> option bool) (t t' : sym_state) : Prop :=
  sym_step t t' /\ keep ask t' = true.

Lemma psucc_correct : forall ask t t', In t' (psucc ask t) <-> pstep ask t t'.
Proof.
  intros ask t t'. unfold psucc, pstep. rewrite filter_In, expand_state_correct. tauto.
Qed.

(** A symbolic step to a state that every oracle of the family keeps. *)
Definition pstep_all (ask : nat -> bexpr -> option bool) (t t' : sym_state) : Prop :=
  sym_step t t' /\ forall i, keep (ask i) t' = true.

(** A sound oracle keeps every state whose path condition is satisfiable. *)
Lemma keep_sat : forall ask t V, oracle_sound ask -> sat V (pc t) -> keep ask t = true.
Proof.
  intros ask t V [_ Hf] Hs. unfold keep.
  destruct (ask (pc t)) as [[|]|] eqn:Ha; try reflexivity.
  exfalso. exact (Hf _ Ha V Hs).
Qed.

(** With a sound oracle at every iteration, a symbolic path to a state with a satisfiable
    path condition is a path of the pruned search: path conditions only grow, so every
    state on the path has a satisfiable path condition and is kept, whenever it is asked. *)
Lemma sym_steps_pstep : forall ask V t0 t,
  (forall i, oracle_sound (ask i)) -> sym_steps t0 t -> sat V (pc t) -> star (pstep_all ask) t0 t.
Proof.
  intros ask V t0 t Ho H. induction H as [a|a b c Hab Hbc IH]; intros Hs.
  - constructor.
  - econstructor; [|exact (IH Hs)].
    split; [exact Hab|]. intros i. apply (keep_sat (ask i) b V (Ho i)).
    exact (sym_steps_sat_mono b c V Hbc Hs).
Qed.

(** ** The unpruned search is the special case of the oracle that never answers *)

Lemma psucc_never : forall t, psucc never t = expand_state t.
Proof.
  intros t. unfold psucc. induction (expand_state t) as [|a l IH]; simpl; [reflexivity|].
  rewrite IH. reflexivity.
Qed.

Lemma queue_never : forall n l, queue (psucc never) n l = queue expand_state n l.
Proof.
  intros n; induction n as [|n IH]; intros l; simpl; [reflexivity|].
  rewrite <- IH. f_equal. destruct l as [|t l]; simpl; [reflexivity|].
  rewrite psucc_never. reflexivity.
Qed.

Theorem prun_never : forall l n, prun (fun _ => never) l n = run l n.
Proof.
  intros l n. unfold prun, run, tnth, bfs_nth. rewrite tqueue_const, queue_never. reflexivity.
Qed.

(** ** Lemma 3.1 and Theorems 3.2-3.4 for the pruned search *)

(** Fairness of [prun] (the generic [tqueue_fair]): every state in the queue is
    eventually expanded, and its kept successors are then queued. *)
Theorem prun_fair : forall ask l n t,
  In t (tqueue (fun i => psucc (ask i)) n l) ->
  exists m rest, n <= m /\ prun ask l m = Some t /\
                 tqueue (fun i => psucc (ask i)) (S m) l = rest ++ psucc (ask m) t.
Proof.
  intros ask l n t H.
  destruct (tqueue_fair _ (fun i => psucc (ask i)) l n t H) as (m & rest & H1 & H2 & H3).
  exists m, rest. unfold prun, tnth. rewrite H2. auto.
Qed.

(** Theorem 3.2 (relative soundness of symbolic execution), with pruning and any
    oracle: every state of the stream is reachable from the initial queue. *)
Theorem prun_sound : forall ask l n t,
  prun ask l n = Some t -> exists t0, In t0 l /\ sym_steps t0 t.
Proof.
  intros ask l n t H.
  destruct (tqueue_sound _ sym_step (fun i => psucc (ask i))
              (fun i x y Hy => proj1 (proj1 (psucc_correct (ask i) x y) Hy)) n l t
              (tnth_in _ _ _ _ _ H)) as (t0 & H1 & H2).
  exists t0. auto.
Qed.

(** Theorem 3.3 (sound termination of symbolic execution), with pruning and any
    oracle: after the first [None], only [None]. *)
Theorem prun_sound_termination : forall ask l n,
  prun ask l n = None -> forall m, n <= m -> prun ask l m = None.
Proof. intros ask l n H m Hm. exact (tnth_done _ _ l n H m Hm). Qed.

(** Lemma 3.1 (reachability of successors), with pruning: a state of the stream is
    followed, later in the stream, by every state reachable from it through states that
    every oracle of the family keeps. *)
Theorem prun_successors : forall ask t t',
  star (pstep_all ask) t t' -> forall l n, prun ask l n = Some t ->
  exists m, n <= m /\ prun ask l m = Some t'.
Proof.
  intros ask t t' H l n Hn.
  apply (tqueue_complete _ (pstep_all ask) (fun i => psucc (ask i))
           (fun i x y Hxy => proj2 (psucc_correct (ask i) x y)
                               (conj (proj1 Hxy) (proj2 Hxy i))) t t' H l n).
  exact (tnth_in _ _ _ _ _ Hn).
Qed.

(** Every state reachable from the initial queue through kept states appears. *)
Theorem prun_complete_kept : forall ask l t0 t,
  In t0 l -> star (pstep_all ask) t0 t -> exists n, prun ask l n = Some t.
Proof.
  intros ask l t0 t Hin H.
  destruct (tqueue_complete _ (pstep_all ask) (fun i => psucc (ask i))
              (fun i x y Hxy => proj2 (psucc_correct (ask i) x y)
                                  (conj (proj1 Hxy) (proj2 Hxy i))) t0 t H l 0 Hin)
    as (m & _ & Hm).
  exists m. exact Hm.
Qed.

(** Theorem 3.4 (relative completeness of symbolic execution), with pruning and a
    sound oracle: every state reachable from the initial queue whose path condition is
    satisfiable appears in the stream. *)
Theorem prun_complete : forall ask l t0 t,
  (forall i, oracle_sound (ask i)) -> In t0 l -> sym_steps t0 t -> (exists V, sat V (pc t)) ->
  exists n, prun ask l n = Some t.
Proof.
  intros ask l t0 t Ho Hin H [V HV].
  exact (prun_complete_kept ask l t0 t Hin (sym_steps_pstep ask V t0 t Ho H HV)).
Qed.

(** Theorem 3.4 without pruning, as the special case of the oracle that never
    answers: every reachable state appears, satisfiable or not. *)
Theorem prun_never_complete : forall l t0 t,
  In t0 l -> sym_steps t0 t -> exists n, prun (fun _ => never) l n = Some t.
Proof.
  intros l t0 t Hin H. apply (prun_complete_kept (fun _ => never) l t0). { exact Hin. }
  clear Hin. induction H as [a|a b c Hab Hbc IH]; [constructor|].
  econstructor; [split; [exact Hab|reflexivity]|]. exact IH.
Qed.

(** The unpruned [run_complete] recovered from the pruned theorem. *)
Corollary run_complete_from_prun : forall l t0 t,
  In t0 l -> sym_steps t0 t -> exists n, run l n = Some t.
Proof.
  intros l t0 t Hin H. destruct (prun_never_complete l t0 t Hin H) as [n Hn].
  exists n. rewrite <- prun_never. exact Hn.
Qed.

(** With a sound oracle, the pruned stream ends only after every reachable state with
    a satisfiable path condition appeared. *)
Theorem prun_finished_explored : forall ask l n,
  (forall i, oracle_sound (ask i)) -> prun ask l n = None ->
  forall t0 t, In t0 l -> sym_steps t0 t -> (exists V, sat V (pc t)) ->
  exists m, m < n /\ prun ask l m = Some t.
Proof.
  intros ask l n Ho Hn t0 t Hin H Hs. destruct (prun_complete ask l t0 t Ho Hin H Hs) as [m Hm].
  exists m. split; [|assumption].
  destruct (Nat.lt_ge_cases m n) as [Hlt|Hge]; [assumption|].
  rewrite (prun_sound_termination ask l n Hn m Hge) in Hm. discriminate.
Qed.

(** ** Theorems 3.5-3.7 for the paper's bug finder over the pruned stream *)

Lemma pfind_bugs_bug : forall ask p n t,
  pfind_bugs ask p n = BugFound t ->
  prun ask (init p) n = Some t /\ is_error (prog t) = true /\ ask n (pc t) <> Some false.
Proof.
  intros ask p n t H. unfold pfind_bugs, classify in H.
  destruct (prun ask (init p) n) as [t'|]; [|discriminate].
  destruct (is_error (prog t')) eqn:He; [|discriminate].
  destruct (ask n (pc t')) as [[|]|] eqn:Ha; inversion H; subst; repeat split; congruence.
Qed.

Lemma pfind_bugs_finished : forall ask p n,
  pfind_bugs ask p n = Finished <-> prun ask (init p) n = None.
Proof.
  intros ask p n. unfold pfind_bugs, classify.
  destruct (prun ask (init p) n) as [t|]; [|split; reflexivity].
  split; [|discriminate].
  destruct (is_error (prog t)); [destruct (ask n (pc t)) as [[|]|]|]; discriminate.
Qed.

(** Theorem 3.5 (relatively sound bug discovery), with pruning and any oracle: every
    reported state is a potential bug and all its concretizations are bugs. *)
Theorem pfind_bugs_relative_soundness : forall ask p n t,
  pfind_bugs ask p n = BugFound t -> potential_bug p t /\ ValidBug p t.
Proof.
  intros ask p n t H. destruct (pfind_bugs_bug ask p n t H) as (H1 & H2 & _).
  destruct (prun_sound _ _ _ _ H1) as (t0 & [<-|[]] & H3).
  assert (potential_bug p t) as Hp by (split; assumption).
  split; [assumption|]. apply potential_bug_valid. assumption.
Qed.

(** Theorem 3.6 (relatively complete bug discovery), with pruning and a sound oracle:
    every concrete bug is a concretization of some state eventually reported. *)
Theorem pfind_bugs_relative_completeness : forall ask p c,
  (forall i, oracle_sound (ask i)) -> IsBug p c ->
  exists n t, pfind_bugs ask p n = BugFound t /\ Concrete t c.
Proof.
  intros ask p c Ho Hbug.
  apply is_bug_iff in Hbug. destruct Hbug as (t & [Hr He] & Hc).
  assert (exists V, sat V (pc t)) as Hs.
  { destruct Hc as [V HV]. exists V. destruct t as [[phi ss] q]. exact (proj1 HV). }
  destruct (prun_complete ask (init p) (sym_init p) t Ho (or_introl eq_refl) Hr Hs) as [n Hn].
  exists n, t. split; [|exact Hc].
  unfold pfind_bugs, classify. rewrite Hn, He.
  destruct Hs as [V HV]. pose proof (keep_sat (ask n) t V (Ho n) HV) as Hk. unfold keep in Hk.
  destruct (ask n (pc t)) as [[|]|]; congruence.
Qed.

(** Theorem 3.7 (sound termination of the bug finder), with pruning and any oracle. *)
Theorem pfind_bugs_sound_termination : forall ask p n,
  pfind_bugs ask p n = Finished -> forall m, n <= m -> pfind_bugs ask p m = Finished.
Proof.
  intros ask p n H m Hm. apply pfind_bugs_finished. apply pfind_bugs_finished in H.
  exact (prun_sound_termination _ _ n H m Hm).
Qed.

(** With pruning and a sound oracle, [Finished] without any [BugFound] before it
    means that the program has no bug. *)
Theorem pfind_bugs_finished_no_bug : forall ask p n,
  (forall i, oracle_sound (ask i)) -> pfind_bugs ask p n = Finished ->
  (forall m t, m < n -> pfind_bugs ask p m <> BugFound t) -> ~ has_bug p.
Proof.
  intros ask p n Ho Hn Hnone [c Hc].
  destruct (pfind_bugs_relative_completeness ask p c Ho Hc) as (m & t & H1 & _).
  destruct (Nat.lt_ge_cases m n) as [Hlt|Hge].
  - exact (Hnone m t Hlt H1).
  - rewrite (pfind_bugs_sound_termination ask p n Hn m Hge) in H1. discriminate.
Qed.
