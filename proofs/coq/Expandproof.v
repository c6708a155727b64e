(** * Theorem 3.1: [expand] returns exactly the symbolic successors. *)

From Coq Require Import ZArith String List Bool.
From Certsym Require Import Syntax Concrete Symbolic Expand.
Import ListNotations.

Lemma can_fail_mut :
  (forall a, acan KFail a = false) /\ (forall t, arcan KFail t = false).
Proof. apply aexpr_arr_mut; intros; simpl; rewrite ?H, ?H0, ?H1; reflexivity. Qed.

Lemma acan_fail : forall a, acan KFail a = false.
Proof. apply (proj1 can_fail_mut). Qed.

Lemma bcan_fail : forall b, bcan KFail b = false.
Proof. induction b; simpl; rewrite ?acan_fail, ?IHb, ?IHb1, ?IHb2; reflexivity. Qed.

Lemma wcan_fail : forall i e, wcan KFail i e = false.
Proof. intros. unfold wcan. rewrite !acan_fail. reflexivity. Qed.

Lemma in_err_succs : forall can F phi ss t, can KFail = false ->
  In t (err_succs can F phi ss) <-> exists k, can k = true /\ t = (Band phi (F k), ss, Fail k).
Proof.
  intros can F phi ss t H0. unfold err_succs. rewrite in_app_iff. split.
  - intros [H|H]; [destruct (can KDiv) eqn:E|destruct (can KIdx) eqn:E];
      simpl in H; try (destruct H as [<-|[]]); try destruct H; eauto.
  - intros [k [Hk ->]]. destruct k; [congruence| |]; rewrite Hk; simpl; auto.
Qed.

Lemma expand_sound : forall phi ss p t, In t (expand phi ss p) -> sym_step (phi, ss, p) t.
Proof.
  intros phi ss p; revert phi ss; induction p; intros phi ss t H; simpl in H.
  - destruct H.
  - destruct H.
  - destruct H as [<-|H]; [apply E_Assign|].
    apply in_err_succs in H; [|apply acan_fail]. destruct H as [k [Hd ->]].
    apply E_AssignErr; assumption.
  - destruct H as [<-|H]; [apply E_ArrAssign|].
    apply in_err_succs in H; [|apply wcan_fail]. destruct H as [k [Hd ->]].
    apply E_ArrAssignErr; assumption.
  - destruct p1;
      try (apply in_map_iff in H; destruct H as [[[phi' ss'] p'] [<- H]];
           apply E_Seq; apply IHp1; exact H).
    destruct H as [<-|[]]. apply E_SeqSkip.
  - destruct H as [<-|[<-|H]]; [apply E_IfTrue|apply E_IfFalse|].
    apply in_err_succs in H; [|apply bcan_fail]. destruct H as [k [Hd ->]].
    apply E_IfErr; assumption.
  - destruct H as [<-|[]]. apply E_While.
  - destruct H as [<-|H]; [apply E_Assume|].
    apply in_err_succs in H; [|apply bcan_fail]. destruct H as [k [Hd ->]].
    apply E_AssumeErr; assumption.
Qed.

Lemma expand_complete : forall phi ss p t, sym_step (phi, ss, p) t -> In t (expand phi ss p).
Proof.
  intros phi ss p t H. remember (phi, ss, p) as t0. revert phi ss p Heqt0.
  induction H; intros phi0 ss0 p0 E; inversion E; subst; simpl.
  - left; reflexivity.
  - right. apply in_err_succs; [apply acan_fail|]. eauto.
  - left; reflexivity.
  - right. apply in_err_succs; [apply wcan_fail|]. eauto.
  - left; reflexivity.
  - right; left; reflexivity.
  - right; right. apply in_err_succs; [apply bcan_fail|]. eauto.
  - left; reflexivity.
  - left; reflexivity.
  - right. apply in_err_succs; [apply bcan_fail|]. eauto.
  - left; reflexivity.
  - assert (p <> Skip) as Hp by (intros ->; inversion H).
    assert (In (phi', S', p') (expand phi0 ss0 p)) as Hin by (eapply IHsym_step; reflexivity).
    change (phi', S', Seq p' q) with (then_do q (phi', S', p')).
    destruct p; try (apply in_map; exact Hin). congruence.
Qed.

(** Theorem 3.1 (correct expansion). *)
Theorem expand_correct : forall phi ss p t,
  In t (expand phi ss p) <-> sym_step (phi, ss, p) t.
Proof. split; [apply expand_sound|apply expand_complete]. Qed.

Corollary expand_state_correct : forall t t', In t' (expand_state t) <-> sym_step t t'.
Proof. intros [[phi ss] p] t'. apply expand_correct. Qed.

Lemma expand_seq : forall phi ss p q, p <> Skip ->
  expand phi ss (Seq p q) = map (then_do q) (expand phi ss p).
Proof. intros phi ss p q H. destruct p; try reflexivity. congruence. Qed.

(** Successors of an error state or of [skip]: none. *)
Lemma expand_error_nil : forall phi ss p, is_error p = true -> expand phi ss p = [].
Proof.
  intros phi ss p. unfold is_error. induction p; intros H; simpl in H; try discriminate; try reflexivity.
  destruct (stmt_eq_dec p1 Skip) as [->|Hne]; [discriminate H|].
  rewrite expand_seq by exact Hne. rewrite IHp1 by exact H. reflexivity.
Qed.
