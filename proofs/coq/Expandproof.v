(** * Theorem 3.1: [expand] returns exactly the symbolic successors. *)

From Coq Require Import ZArith String List Bool.
From Certsym Require Import Syntax Concrete Symbolic Expand.
Import ListNotations.

Lemma in_fail_succ : forall divs phi D ss t,
  In t (fail_succ divs phi D ss) <-> has_div divs = true /\ t = (Band phi (Bnot D), ss, Fail).
Proof.
  intros. unfold fail_succ. destruct (has_div divs); simpl; split.
  - intros [<-|[]]. auto.
  - intros [_ ->]. auto.
  - intros [].
  - intros [H _]. discriminate.
Qed.

Lemma expand_sound : forall phi ss p t, In t (expand phi ss p) -> sym_step (phi, ss, p) t.
Proof.
  intros phi ss p; revert phi ss; induction p; intros phi ss t H; simpl in H.
  - destruct H.
  - destruct H.
  - destruct H as [<-|H]; [apply E_Assign|].
    apply in_fail_succ in H. destruct H as [Hd ->]. apply E_AssignErr; assumption.
  - destruct p1;
      try (apply in_map_iff in H; destruct H as [[[phi' ss'] p'] [<- H]];
           apply E_Seq; apply IHp1; exact H).
    destruct H as [<-|[]]. apply E_SeqSkip.
  - destruct H as [<-|[<-|H]]; [apply E_IfTrue|apply E_IfFalse|].
    apply in_fail_succ in H. destruct H as [Hd ->]. apply E_IfErr; assumption.
  - destruct H as [<-|[]]. apply E_While.
  - destruct H as [<-|H]; [apply E_Assume|].
    apply in_fail_succ in H. destruct H as [Hd ->]. apply E_AssumeErr; assumption.
Qed.

Lemma expand_complete : forall phi ss p t, sym_step (phi, ss, p) t -> In t (expand phi ss p).
Proof.
  intros phi ss p t H. remember (phi, ss, p) as t0. revert phi ss p Heqt0.
  induction H; intros phi0 ss0 p0 E; inversion E; subst; simpl.
  - left; reflexivity.
  - right. apply in_fail_succ. auto.
  - left; reflexivity.
  - right; left; reflexivity.
  - right; right. apply in_fail_succ. auto.
  - left; reflexivity.
  - left; reflexivity.
  - right. apply in_fail_succ. auto.
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
