(** * Properties of [run]: fairness of the queue, relative soundness (Theorem 3.2),
    sound termination (Theorem 3.3) and relative completeness (Theorem 3.4). *)

From Coq Require Import List Arith Lia.
From Certsym Require Import Syntax Concrete Concreteproof Symbolic Expand Expandproof Run.
Import ListNotations.

(** ** The generic queue *)

Lemma queue_add : forall A (succ : A -> list A) n m l,
  queue succ (n + m) l = queue succ m (queue succ n l).
Proof. intros A succ n; induction n; intros m l; simpl; [reflexivity|apply IHn]. Qed.

Lemma queue_S_r : forall A (succ : A -> list A) n l,
  queue succ (S n) l = bfs_step succ (queue succ n l).
Proof.
  intros. rewrite <- Nat.add_1_r, queue_add. reflexivity.
Qed.

Lemma queue_nil : forall A (succ : A -> list A) n, queue succ n [] = [].
Proof. intros A succ n; induction n; simpl; auto. Qed.

(** After [length l1] iterations the queue [l1 ++ l2] starts with [l2]. *)
Lemma queue_prefix : forall A (succ : A -> list A) l1 l2,
  exists l3, queue succ (length l1) (l1 ++ l2) = l2 ++ l3.
Proof.
  intros A succ l1; induction l1 as [|t l1 IH]; intros l2.
  - exists []. rewrite app_nil_r. reflexivity.
  - simpl. rewrite <- app_assoc. destruct (IH (l2 ++ succ t)) as [l3 H].
    exists (succ t ++ l3). rewrite H, app_assoc. reflexivity.
Qed.

(** Fairness: a state in the queue at iteration [n] is taken from the front at some
    later iteration [m], and its successors are then in the queue. *)
Theorem bfs_fair : forall A (succ : A -> list A) l n t,
  In t (queue succ n l) ->
  exists m rest, n <= m /\ queue succ m l = t :: rest /\
                 queue succ (S m) l = rest ++ succ t.
Proof.
  intros A succ l n t H.
  apply in_split in H. destruct H as (l1 & l2 & H).
  destruct (queue_prefix A succ l1 (t :: l2)) as [l3 H3].
  exists (n + length l1), (l2 ++ l3). split; [lia|].
  assert (queue succ (n + length l1) l = t :: l2 ++ l3) as Hm.
  { rewrite queue_add, H, H3. reflexivity. }
  split; [exact Hm|]. rewrite queue_S_r, Hm. reflexivity.
Qed.

Corollary bfs_fair_nth : forall A (succ : A -> list A) l n t,
  In t (queue succ n l) -> exists m, n <= m /\ bfs_nth succ l m = Some t.
Proof.
  intros A succ l n t H. destruct (bfs_fair A succ l n t H) as (m & rest & H1 & H2 & _).
  exists m. split; [assumption|]. unfold bfs_nth. rewrite H2. reflexivity.
Qed.

(** Generic soundness: every queued element is reachable from the initial queue. *)
Lemma bfs_queue_sound : forall A (R : A -> A -> Prop) (succ : A -> list A),
  (forall x y, In y (succ x) -> R x y) ->
  forall n l t, In t (queue succ n l) -> exists t0, In t0 l /\ star R t0 t.
Proof.
  intros A R succ Hs n; induction n; intros l t H; simpl in H.
  - exists t. split; [assumption|constructor].
  - destruct l as [|a l]; [rewrite queue_nil in H; destruct H|].
    simpl in H. destruct (IHn _ _ H) as (t0 & H1 & H2).
    apply in_app_or in H1. destruct H1 as [H1|H1].
    + exists t0. split; [right; assumption|assumption].
    + exists a. split; [left; reflexivity|]. econstructor; [apply Hs; exact H1|exact H2].
Qed.

(** Generic completeness: everything reachable from a queued element is eventually
    at the front. *)
Lemma bfs_queue_complete : forall A (R : A -> A -> Prop) (succ : A -> list A),
  (forall x y, R x y -> In y (succ x)) ->
  forall t0 t, star R t0 t ->
  forall l n, In t0 (queue succ n l) -> exists m, n <= m /\ bfs_nth succ l m = Some t.
Proof.
  intros A R succ Hc t0 t H. induction H; intros l n Hin.
  - apply bfs_fair_nth. assumption.
  - destruct (bfs_fair A succ l n a Hin) as (m & rest & H1 & H2 & H3).
    assert (In b (queue succ (S m) l)) as Hb.
    { rewrite H3. apply in_or_app. right. apply Hc. assumption. }
    destruct (IHstar l (S m) Hb) as (k & H4 & H5). exists k. split; [lia|assumption].
Qed.

Lemma bfs_nth_none : forall A (succ : A -> list A) l n,
  bfs_nth succ l n = None -> queue succ n l = [].
Proof. intros A succ l n. unfold bfs_nth. destruct (queue succ n l); [auto|discriminate]. Qed.

Lemma bfs_done : forall A (succ : A -> list A) l n,
  bfs_nth succ l n = None -> forall m, n <= m -> bfs_nth succ l m = None.
Proof.
  intros A succ l n H m Hm. apply bfs_nth_none in H.
  replace m with (n + (m - n)) by lia. unfold bfs_nth.
  rewrite queue_add, H, queue_nil. reflexivity.
Qed.

(** ** [run] *)

(** Fairness of [run]: every state in the queue is eventually expanded. *)
Theorem run_fair : forall l n t,
  In t (queue expand_state n l) ->
  exists m rest, n <= m /\ run l m = Some t /\
                 queue expand_state (S m) l = rest ++ expand_state t.
Proof.
  intros l n t H. destruct (bfs_fair _ expand_state l n t H) as (m & rest & H1 & H2 & H3).
  exists m, rest. unfold run, bfs_nth. rewrite H2. auto.
Qed.

(** Theorem 3.2 (relative soundness of [run]): every state of the stream is
    symbolically reachable from the initial queue. *)
Theorem run_sound : forall l n t,
  run l n = Some t -> exists t0, In t0 l /\ sym_steps t0 t.
Proof.
  intros l n t H. unfold run, bfs_nth in H.
  apply (bfs_queue_sound _ sym_step expand_state) with (n := n).
  - intros x y Hy. apply expand_state_correct. assumption.
  - destruct (queue expand_state n l); inversion H; left; reflexivity.
Qed.

(** Theorem 3.3 (sound termination of [run]): once the stream has ended, it stays
    ended ... *)
Theorem run_sound_termination : forall l n,
  run l n = None -> forall m, n <= m -> run l m = None.
Proof. intros l n H m Hm. exact (bfs_done _ expand_state l n H m Hm). Qed.

(** Theorem 3.4 (relative completeness of [run]): every state reachable from the
    initial queue appears in the stream. *)
Theorem run_complete : forall l t0 t,
  In t0 l -> sym_steps t0 t -> exists n, run l n = Some t.
Proof.
  intros l t0 t Hin H.
  destruct (bfs_queue_complete _ sym_step expand_state
              (fun x y Hxy => proj2 (expand_state_correct x y) Hxy) t0 t H l 0 Hin)
    as (m & _ & Hm).
  exists m. exact Hm.
Qed.

(** Lemma 3.1 (reachability of successors): a state of the stream is followed, later
    in the stream, by every state reachable from it. *)
Theorem run_successors : forall t t',
  sym_steps t t' -> forall l n, run l n = Some t -> exists m, n <= m /\ run l m = Some t'.
Proof.
  intros t t' H l n Hn.
  apply (bfs_queue_complete _ sym_step expand_state
           (fun x y Hxy => proj2 (expand_state_correct x y) Hxy) t t' H l n).
  unfold run, bfs_nth in Hn. destruct (queue expand_state n l); inversion Hn; left; reflexivity.
Qed.

(** ... and, by completeness, it ends only after every reachable state appeared. *)
Theorem run_finished_explored : forall l n,
  run l n = None ->
  forall t0 t, In t0 l -> sym_steps t0 t -> exists m, m < n /\ run l m = Some t.
Proof.
  intros l n Hn t0 t Hin H. destruct (run_complete l t0 t Hin H) as [m Hm].
  exists m. split; [|assumption].
  destruct (Nat.lt_ge_cases m n) as [Hlt|Hge]; [assumption|].
  rewrite (run_sound_termination l n Hn m Hge) in Hm. discriminate.
Qed.
