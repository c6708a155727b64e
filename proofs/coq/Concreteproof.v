(** * Properties of the concrete semantics: the executable step is the relation,
    the classifier, definedness of evaluation and its formula [D]. *)

From Coq Require Import ZArith String List Bool Lia.
From Certsym Require Import Syntax Concrete.
Import ListNotations.
Open Scope Z_scope.

(** ** Evaluation *)

Lemma aeval_total : forall s a v, aeval s a = Some v -> aevalT s a = v.
Proof.
  intros s a; induction a; intros v H; simpl in *;
    try (destruct (aeval s a1) eqn:E1; destruct (aeval s a2) eqn:E2; simpl in H;
         try discriminate).
  all: try (inversion H; reflexivity).
  - destruct (aeval s a); inversion H. rewrite (IHa z eq_refl). reflexivity.
  - inversion H; subst. rewrite (IHa1 z eq_refl), (IHa2 z0 eq_refl). reflexivity.
  - inversion H; subst. rewrite (IHa1 z eq_refl), (IHa2 z0 eq_refl). reflexivity.
  - inversion H; subst. rewrite (IHa1 z eq_refl), (IHa2 z0 eq_refl). reflexivity.
  - destruct (z0 =? 0); inversion H; subst.
    rewrite (IHa1 z eq_refl), (IHa2 z0 eq_refl). reflexivity.
  - destruct (z0 =? 0); inversion H; subst.
    rewrite (IHa1 z eq_refl), (IHa2 z0 eq_refl). reflexivity.
Qed.

Lemma beval_total : forall s b v, beval s b = Some v -> bevalT s b = v.
Proof.
  intros s b; induction b; intros v H; simpl in *;
    try (inversion H; reflexivity).
  all: try (destruct (aeval s a1) eqn:E1; destruct (aeval s a2) eqn:E2; simpl in H;
            try discriminate; inversion H; subst;
            rewrite (aeval_total _ _ _ E1), (aeval_total _ _ _ E2); reflexivity).
  - destruct (beval s b); inversion H. rewrite (IHb b0 eq_refl). reflexivity.
  - destruct (beval s b1) eqn:E1; destruct (beval s b2) eqn:E2; simpl in H;
      try discriminate; inversion H; subst.
    rewrite (IHb1 b eq_refl), (IHb2 b0 eq_refl). reflexivity.
  - destruct (beval s b1) eqn:E1; destruct (beval s b2) eqn:E2; simpl in H;
      try discriminate; inversion H; subst.
    rewrite (IHb1 b eq_refl), (IHb2 b0 eq_refl). reflexivity.
Qed.

(** ** Definedness and [D] *)

Lemma bevalT_conj : forall V l, bevalT V (big_and l) = forallb (bevalT V) l.
Proof.
  intros V l; induction l as [|c l IH]; [reflexivity|].
  destruct l as [|c' l'].
  - simpl. rewrite andb_true_r. reflexivity.
  - transitivity (bevalT V c && bevalT V (big_and (c' :: l'))); [reflexivity|].
    rewrite IH. reflexivity.
Qed.

Lemma bevalT_nonzero_all : forall V l,
  bevalT V (nonzero_all l) = true <-> (forall r, In r l -> aevalT V r <> 0).
Proof.
  intros V l. unfold nonzero_all. rewrite bevalT_conj, forallb_forall.
  split.
  - intros H r Hr. specialize (H (Bne r (Cst 0)) (in_map _ _ _ Hr)).
    simpl in H. apply negb_true_iff, Z.eqb_neq in H. exact H.
  - intros H c Hc. apply in_map_iff in Hc. destruct Hc as [r [<- Hr]].
    simpl. apply negb_true_iff, Z.eqb_neq. apply H; exact Hr.
Qed.

Lemma defined_iff_2 : forall {A : Type} (o1 o2 : option A) (P1 P2 : Prop),
  ((exists v, o1 = Some v) <-> P1) -> ((exists v, o2 = Some v) <-> P2) ->
  ((exists v1 v2, o1 = Some v1 /\ o2 = Some v2) <-> P1 /\ P2).
Proof.
  intros A o1 o2 P1 P2 H1 H2. split.
  - intros (v1 & v2 & E1 & E2). split; [apply H1|apply H2]; eauto.
  - intros [HP1 HP2]. apply H1 in HP1. apply H2 in HP2.
    destruct HP1 as [v1 E1], HP2 as [v2 E2]. eauto.
Qed.

Lemma forall_in_app : forall (P : aexpr -> Prop) l1 l2,
  (forall r, In r (l1 ++ l2) -> P r) <-> (forall r, In r l1 -> P r) /\ (forall r, In r l2 -> P r).
Proof.
  intros P l1 l2. split.
  - intros H. split; intros r Hr; apply H, in_or_app; auto.
  - intros [H1 H2] r Hr. apply in_app_or in Hr. destruct Hr; auto.
Qed.

Lemma lift2_some : forall A B (f : A -> A -> B) o1 o2,
  (exists v, lift2 f o1 o2 = Some v) <-> (exists v1 v2, o1 = Some v1 /\ o2 = Some v2).
Proof.
  intros. destruct o1, o2; simpl; split; intros H;
    try (destruct H as [? H]; discriminate);
    try (destruct H as (? & ? & H1 & H2); discriminate); eauto.
Qed.

Lemma div_opt_some : forall f o1 o2,
  (exists v, div_opt f o1 o2 = Some v) <->
  (exists v1 v2, o1 = Some v1 /\ o2 = Some v2) /\
  (forall v2, o2 = Some v2 -> v2 <> 0).
Proof.
  intros f o1 o2. destruct o1 as [v1|], o2 as [v2|]; simpl.
  - destruct (Z.eqb_spec v2 0) as [E|E]; split.
    + intros [v H]; discriminate.
    + intros [_ H]. exfalso. apply (H v2 eq_refl E).
    + intros _. split; eauto. intros v2' H; inversion H; subst; exact E.
    + intros _; eauto.
  - split; [intros [v H]; discriminate | intros [(? & ? & ? & H) _]; discriminate].
  - split; [intros [v H]; discriminate | intros [(? & ? & H & ?) _]; discriminate].
  - split; [intros [v H]; discriminate | intros [(? & ? & H & ?) _]; discriminate].
Qed.

(** Evaluation is defined iff every divisor is non-zero (divisors evaluated totally). *)
Lemma aeval_defined : forall V a,
  (exists v, aeval V a = Some v) <-> (forall r, In r (adivs a) -> aevalT V r <> 0).
Proof.
  intros V a; induction a; simpl.
  - split; [intros _ r []| eauto].
  - split; [intros _ r []| eauto].
  - rewrite <- IHa. destruct (aeval V a); simpl; split; intros [v H];
      try discriminate; eauto.
  - rewrite lift2_some, forall_in_app. apply defined_iff_2; assumption.
  - rewrite lift2_some, forall_in_app. apply defined_iff_2; assumption.
  - rewrite lift2_some, forall_in_app. apply defined_iff_2; assumption.
  - rewrite div_opt_some, !forall_in_app, (defined_iff_2 _ _ _ _ IHa1 IHa2).
    split.
    + intros [[H1 H2] H3]. repeat split; auto.
      intros r [<-|[]]. destruct (proj2 IHa2 H2) as [v2 E2].
      rewrite (aeval_total _ _ _ E2). apply H3; exact E2.
    + intros [H1 [H2 H3]]. repeat split; auto.
      intros v2 E2. rewrite <- (aeval_total _ _ _ E2). apply H3. left; reflexivity.
  - rewrite div_opt_some, !forall_in_app, (defined_iff_2 _ _ _ _ IHa1 IHa2).
    split.
    + intros [[H1 H2] H3]. repeat split; auto.
      intros r [<-|[]]. destruct (proj2 IHa2 H2) as [v2 E2].
      rewrite (aeval_total _ _ _ E2). apply H3; exact E2.
    + intros [H1 [H2 H3]]. repeat split; auto.
      intros v2 E2. rewrite <- (aeval_total _ _ _ E2). apply H3. left; reflexivity.
Qed.

Lemma lift2_some_b : forall A B (f : A -> A -> B) o1 o2,
  (exists v, lift2 f o1 o2 = Some v) <-> (exists v1 v2, o1 = Some v1 /\ o2 = Some v2).
Proof. intros; apply lift2_some. Qed.

Lemma beval_defined : forall V b,
  (exists v, beval V b = Some v) <-> (forall r, In r (bdivs b) -> aevalT V r <> 0).
Proof.
  intros V b; induction b; simpl.
  all: try (rewrite lift2_some, forall_in_app;
            apply defined_iff_2; apply aeval_defined).
  - split; [intros _ r []| eauto].
  - split; [intros _ r []| eauto].
  - rewrite <- IHb. destruct (beval V b); simpl; split; intros [v H];
      try discriminate; eauto.
  - rewrite lift2_some, forall_in_app. apply defined_iff_2; assumption.
  - rewrite lift2_some, forall_in_app. apply defined_iff_2; assumption.
Qed.

(** [D(a)] holds exactly when [a] is defined. *)
Theorem aD_correct : forall V a,
  bevalT V (aD a) = true <-> (exists v, aeval V a = Some v).
Proof.
  intros. unfold aD. rewrite bevalT_nonzero_all, aeval_defined. reflexivity.
Qed.

Theorem bD_correct : forall V b,
  bevalT V (bD b) = true <-> (exists v, beval V b = Some v).
Proof.
  intros. unfold bD. rewrite bevalT_nonzero_all, beval_defined. reflexivity.
Qed.

Corollary aD_false : forall V a, bevalT V (aD a) = false <-> aeval V a = None.
Proof.
  intros V a. pose proof (aD_correct V a) as H.
  destruct (bevalT V (aD a)), (aeval V a); split; intros E; auto; try discriminate.
  - exfalso. destruct (proj1 H eq_refl) as [v Hv]; discriminate.
  - assert (false = true) as C by (apply H; eauto). discriminate.
Qed.

Corollary bD_false : forall V b, bevalT V (bD b) = false <-> beval V b = None.
Proof.
  intros V b. pose proof (bD_correct V b) as H.
  destruct (bevalT V (bD b)), (beval V b); split; intros E; auto; try discriminate.
  - exfalso. destruct (proj1 H eq_refl) as [v Hv]; discriminate.
  - assert (false = true) as C by (apply H; eauto). discriminate.
Qed.

(** No division, no [fail] successor: [D] is literally [true]. *)
Lemma aD_no_div : forall a, has_div (adivs a) = false -> aD a = Btrue.
Proof. intros a H. unfold aD. destruct (adivs a); [reflexivity|discriminate]. Qed.

Lemma bD_no_div : forall b, has_div (bdivs b) = false -> bD b = Btrue.
Proof. intros b H. unfold bD. destruct (bdivs b); [reflexivity|discriminate]. Qed.

Lemma aeval_no_div : forall s a, has_div (adivs a) = false -> exists v, aeval s a = Some v.
Proof.
  intros s a H. apply aeval_defined. destruct (adivs a); [intros r []|discriminate].
Qed.

Lemma beval_no_div : forall s b, has_div (bdivs b) = false -> exists v, beval s b = Some v.
Proof.
  intros s b H. apply beval_defined. destruct (bdivs b); [intros r []|discriminate].
Qed.

(** ** Evaluation only depends on the store pointwise *)

Lemma aeval_ext : forall s1 s2 a, store_eq s1 s2 -> aeval s1 a = aeval s2 a.
Proof.
  intros s1 s2 a H; induction a; simpl;
    try rewrite IHa; try rewrite IHa1; try rewrite IHa2; try rewrite H; reflexivity.
Qed.

Lemma beval_ext : forall s1 s2 b, store_eq s1 s2 -> beval s1 b = beval s2 b.
Proof.
  intros s1 s2 b H; induction b; simpl;
    try rewrite IHb; try rewrite IHb1; try rewrite IHb2;
    try rewrite (aeval_ext _ _ a1 H); try rewrite (aeval_ext _ _ a2 H); reflexivity.
Qed.

Lemma aevalT_ext : forall s1 s2 a, store_eq s1 s2 -> aevalT s1 a = aevalT s2 a.
Proof.
  intros s1 s2 a H; induction a; simpl;
    try rewrite IHa; try rewrite IHa1; try rewrite IHa2; try rewrite H; reflexivity.
Qed.

Lemma bevalT_ext : forall s1 s2 b, store_eq s1 s2 -> bevalT s1 b = bevalT s2 b.
Proof.
  intros s1 s2 b H; induction b; simpl;
    try rewrite IHb; try rewrite IHb1; try rewrite IHb2;
    try rewrite (aevalT_ext _ _ a1 H); try rewrite (aevalT_ext _ _ a2 H); reflexivity.
Qed.

Lemma update_ext : forall s1 s2 x v,
  store_eq s1 s2 -> store_eq (update s1 x v) (update s2 x v).
Proof. intros s1 s2 x v H y. unfold update. destruct (String.eqb x y); auto. Qed.

Lemma store_eq_sym : forall s1 s2, store_eq s1 s2 -> store_eq s2 s1.
Proof. intros s1 s2 H x. symmetry. apply H. Qed.

Lemma store_eq_trans : forall s1 s2 s3, store_eq s1 s2 -> store_eq s2 s3 -> store_eq s1 s3.
Proof. intros s1 s2 s3 H1 H2 x. rewrite H1. apply H2. Qed.

Lemma step_ext : forall s1 p s1' p' s2,
  step (s1, p) (s1', p') -> store_eq s1 s2 ->
  exists s2', step (s2, p) (s2', p') /\ store_eq s1' s2'.
Proof.
  intros s1 p s1' p' s2 Hs. remember (s1, p) as c. remember (s1', p') as c'.
  revert s1 p s1' p' s2 Heqc Heqc'.
  induction Hs; intros s1 p0 s1' p0' s2 E E' Heq; inversion E; inversion E'; subst.
  - exists (update s2 x v). split.
    + constructor. rewrite <- (aeval_ext _ _ _ Heq). assumption.
    + apply update_ext; assumption.
  - exists s2. split; [constructor; rewrite <- (aeval_ext _ _ _ Heq)|]; assumption.
  - exists s2. split; [apply S_IfTrue; rewrite <- (beval_ext _ _ _ Heq)|]; assumption.
  - exists s2. split; [apply S_IfFalse; rewrite <- (beval_ext _ _ _ Heq)|]; assumption.
  - exists s2. split; [apply S_IfErr; rewrite <- (beval_ext _ _ _ Heq)|]; assumption.
  - exists s2. split; [constructor|]; assumption.
  - exists s2. split; [apply S_Assume; rewrite <- (beval_ext _ _ _ Heq)|]; assumption.
  - exists s2. split; [apply S_AssumeErr; rewrite <- (beval_ext _ _ _ Heq)|]; assumption.
  - exists s2. split; [constructor|]; assumption.
  - destruct (IHHs s1 p s1' p' s2 eq_refl eq_refl Heq) as [s2' [H1 H2]].
    exists s2'. split; [constructor|]; assumption.
Qed.

Lemma steps_ext : forall s1 p s1' p' s2,
  steps (s1, p) (s1', p') -> store_eq s1 s2 ->
  exists s2', steps (s2, p) (s2', p') /\ store_eq s1' s2'.
Proof.
  intros s1 p s1' p' s2 Hs. remember (s1, p) as c. remember (s1', p') as c'.
  revert s1 p s2 Heqc. induction Hs; intros s1 p0 s2 E Heq; subst.
  - inversion E; subst. exists s2. split; [constructor|assumption].
  - destruct b as [sb pb].
    destruct (step_ext _ _ _ _ _ H Heq) as [s2b [H1 H2]].
    destruct (IHHs eq_refl sb pb s2b eq_refl H2) as [s2' [H3 H4]].
    exists s2'. split; [econstructor; eauto|assumption].
Qed.

Lemma star_trans : forall A (R : A -> A -> Prop) a b c, star R a b -> star R b c -> star R a c.
Proof. intros A R a b c H1 H2. induction H1; [assumption|econstructor; eauto]. Qed.

Lemma star_one : forall A (R : A -> A -> Prop) a b, R a b -> star R a b.
Proof. intros. econstructor; [eassumption|constructor]. Qed.

(** ** Error states *)

Lemma is_error_correct : forall p, is_error p = true <-> head p = Fail.
Proof.
  intros p. unfold is_error. destruct (head p); split; intros H; congruence.
Qed.

Lemma head_fail_no_step : forall p, head p = Fail -> forall s c, ~ step (s, p) c.
Proof.
  induction p; simpl; intros H s c Hs; try discriminate; inversion Hs; subst.
  - simpl in H; discriminate.
  - eapply IHp1; eauto.
Qed.

Lemma is_error_no_step : forall s p c, is_error p = true -> ~ step (s, p) c.
Proof. intros s p c H. apply is_error_correct in H. apply head_fail_no_step; assumption. Qed.

(** ** The executable step is exactly the relation (Go: [spec.Step]) *)

Theorem cstep_sound : forall s p s' p', cstep s p = Next s' p' -> step (s, p) (s', p').
Proof.
  intros s p; revert s; induction p; intros s s' p' H; simpl in H; try discriminate.
  - destruct (aeval s a) eqn:E; inversion H; subst; constructor; assumption.
  - destruct p1;
      try (destruct (cstep s _) eqn:E; inversion H; subst; constructor; apply IHp1; assumption).
    inversion H; subst. constructor.
  - destruct (beval s b) as [[|]|] eqn:E; inversion H; subst.
    + apply S_IfTrue; assumption.
    + apply S_IfFalse; assumption.
    + apply S_IfErr; assumption.
  - inversion H; subst. constructor.
  - destruct (beval s b) as [[|]|] eqn:E; inversion H; subst.
    + apply S_Assume; assumption.
    + apply S_AssumeErr; assumption.
Qed.

Theorem cstep_complete : forall s p s' p', step (s, p) (s', p') -> cstep s p = Next s' p'.
Proof.
  intros s p s' p' H. remember (s, p) as c. remember (s', p') as c'.
  revert s p s' p' Heqc Heqc'.
  induction H; intros s0 p0 s0' p0' E E'; inversion E; inversion E'; subst; simpl;
    try (rewrite H; reflexivity); try reflexivity.
  rewrite (IHstep s0 p s0' p' eq_refl eq_refl).
  destruct p; try reflexivity. inversion H.
Qed.

Theorem cstep_correct : forall s p s' p', cstep s p = Next s' p' <-> step (s, p) (s', p').
Proof. split; [apply cstep_sound|apply cstep_complete]. Qed.

Lemma cstep_seq : forall s p1 q, p1 <> Skip ->
  cstep s (Seq p1 q) = match cstep s p1 with
                       | Next s' p' => Next s' (Seq p' q)
                       | r => r
                       end.
Proof. intros s p1 q H. destruct p1; try reflexivity. congruence. Qed.

Lemma head_not_skip : forall p, head p = Fail -> p <> Skip.
Proof. intros p H E; subst; discriminate. Qed.

Lemma head_assume_not_skip : forall p b, head p = Assume b -> p <> Skip.
Proof. intros p b H E; subst; discriminate. Qed.

Theorem cstep_final : forall s p, cstep s p = Final <-> p = Skip.
Proof.
  intros s p; split; [|intros ->; reflexivity].
  revert s; induction p; intros s H; simpl in H; try discriminate; try reflexivity.
  - destruct (aeval s a); discriminate.
  - destruct p1; try discriminate;
      destruct (cstep s _) eqn:E; try discriminate; apply IHp1 in E; discriminate.
  - destruct (beval s b) as [[|]|]; discriminate.
  - destruct (beval s b) as [[|]|]; discriminate.
Qed.

Theorem cstep_error : forall s p, cstep s p = Error <-> is_error p = true.
Proof.
  intros s p. rewrite is_error_correct. revert s; induction p; intros s.
  all: try (simpl; split; intros H; try discriminate; try reflexivity; fail).
  - simpl. destruct (aeval s a); split; intros H; discriminate.
  - simpl head. split; intros H.
    + destruct (Syntax.stmt_eq_dec p1 Skip) as [->|Hne]; [discriminate|].
      rewrite cstep_seq in H by exact Hne. apply (IHp1 s).
      destruct (cstep s p1); congruence.
    + rewrite cstep_seq by (apply head_not_skip; exact H).
      apply (IHp1 s) in H. rewrite H. reflexivity.
  - simpl. destruct (beval s b) as [[|]|]; split; intros H; discriminate.
  - simpl. destruct (beval s b) as [[|]|]; split; intros H; discriminate.
Qed.

Theorem cstep_stuck : forall s p,
  cstep s p = Stuck <-> exists b, head p = Assume b /\ beval s b = Some false.
Proof.
  intros s p. revert s; induction p; intros s.
  all: try (simpl; split; intros H; [discriminate|destruct H as [b' [H1 H2]]; discriminate]).
  - simpl. destruct (aeval s a); split; intros H;
      try discriminate; destruct H as [b' [H1 H2]]; discriminate.
  - simpl head. split; intros H.
    + destruct (Syntax.stmt_eq_dec p1 Skip) as [->|Hne]; [discriminate|].
      rewrite cstep_seq in H by exact Hne. apply (IHp1 s).
      destruct (cstep s p1); congruence.
    + destruct H as [b [H1 H2]].
      rewrite cstep_seq by (apply (head_assume_not_skip _ b); exact H1).
      assert (cstep s p1 = Stuck) as E by (apply (IHp1 s); eauto).
      rewrite E. reflexivity.
  - simpl. destruct (beval s b) as [[|]|]; split; intros H;
      try discriminate; destruct H as [b' [H1 H2]]; discriminate.
  - simpl. destruct (beval s b) as [[|]|] eqn:E; split; intros H;
      try discriminate; eauto;
      destruct H as [b' [H1 H2]]; inversion H1; subst; congruence.
Qed.
