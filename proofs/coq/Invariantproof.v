(** * The invariant transition is exhaustive when its claims hold ([inv_exhaustive]), and the
    proof mode built on it is sound ([prove_sound], [prove_sound_desugared]): when every
    error state the mode reaches has an unsatisfiable path condition, no run of the program
    fails.  Definitions in [Invariant.v]. *)

From Coq Require Import ZArith Ascii String List Bool Lia Wf_nat.
From Certsym Require Import Syntax Concrete Concreteproof Symbolic Symbolicproof Invariant.
Import ListNotations.
Local Open Scope nat_scope.

(** ** Stores that agree on some names *)

(** [s1] and [s2] agree on the scalars satisfying [P] and on the arrays satisfying [Q]. *)
Definition agreeP (P Q : var -> Prop) (s1 s2 : store) : Prop :=
  (forall x, P x -> sv s1 x = sv s2 x) /\ (forall c j, Q c -> sa s1 c j = sa s2 c j).

Definition inP (P : var -> Prop) (l : list var) : Prop := forall x, In x l -> P x.

Lemma inP_app : forall P l1 l2, inP P (l1 ++ l2) -> inP P l1 /\ inP P l2.
Proof. intros P l1 l2 H. split; intros x Hx; apply H, in_or_app; auto. Qed.

Ltac split_inP :=
  repeat match goal with
  | H : inP _ (_ ++ _) |- _ => apply inP_app in H; destruct H
  end.

Ltac rw_all :=
  repeat match goal with
  | H : _ = _ |- _ => progress rewrite H
  | H : forall j : Z, _ = _ |- _ => progress rewrite H
  end.

(** ** Evaluation reads only the names an expression mentions *)

Lemma agree_a_mut : forall P Q s1 s2 E, agreeP P Q s1 s2 ->
  (forall a, inP P (avars a) -> inP Q (aarrs a) ->
     aevalTE E s1 a = aevalTE E s2 a /\ aevalE E s1 a = aevalE E s2 a) /\
  (forall t, inP P (arvars t) -> inP Q (ararrs t) ->
     (forall j, agetTE E s1 t j = agetTE E s2 t j) /\ arerrE E s1 t = arerrE E s2 t).
Proof.
  intros P Q s1 s2 E [HV HA].
  apply aexpr_arr_mut; intros; simpl in *; split_inP;
    repeat match goal with
    | IH : inP P ?l -> inP Q ?m -> _ /\ _, H1 : inP P ?l, H2 : inP Q ?m |- _ =>
        destruct (IH H1 H2); clear IH
    end;
    try (split; congruence).
  - rewrite (HV x) by (apply H; left; reflexivity). split; reflexivity.
  - split.
    + rw_all. reflexivity.
    + rw_all. destruct (arerrE E s2 t); [reflexivity|].
      destruct (aevalE E s2 i); simpl; [|reflexivity]. rw_all. reflexivity.
  - split; [|reflexivity]. intros j. apply HA. match goal with H : inP Q [_] |- _ => apply H end.
    left. reflexivity.
  - split.
    + intros j. rw_all. reflexivity.
    + rw_all. reflexivity.
Qed.

Lemma agree_aevalT : forall P Q s1 s2 a, agreeP P Q s1 s2 ->
  inP P (avars a) -> inP Q (aarrs a) -> aevalT s1 a = aevalT s2 a.
Proof. intros. apply (proj1 (agree_a_mut P Q s1 s2 [] H)); assumption. Qed.

Lemma agree_aeval : forall P Q s1 s2 a, agreeP P Q s1 s2 ->
  inP P (avars a) -> inP Q (aarrs a) -> aeval s1 a = aeval s2 a.
Proof. intros. apply (proj1 (agree_a_mut P Q s1 s2 [] H)); assumption. Qed.

Lemma agree_agetT : forall P Q s1 s2 t j, agreeP P Q s1 s2 ->
  inP P (arvars t) -> inP Q (ararrs t) -> agetT s1 t j = agetT s2 t j.
Proof. intros. apply (proj2 (agree_a_mut P Q s1 s2 [] H)); assumption. Qed.

Lemma agree_arerr : forall P Q s1 s2 t, agreeP P Q s1 s2 ->
  inP P (arvars t) -> inP Q (ararrs t) -> arerr s1 t = arerr s2 t.
Proof. intros. apply (proj2 (agree_a_mut P Q s1 s2 [] H)); assumption. Qed.

Lemma agree_b : forall P Q s1 s2, agreeP P Q s1 s2 ->
  forall b, inP P (bvars b) -> inP Q (barrs b) ->
  forall E, bevalTE E s1 b = bevalTE E s2 b /\ bevalE E s1 b = bevalE E s2 b.
Proof.
  intros P Q s1 s2 Hag b; induction b; intros HP HQ E; simpl in *; split_inP;
    repeat match goal with
    | H1 : inP P (avars ?a), H2 : inP Q (aarrs ?a) |- _ =>
        let T := fresh in let R := fresh in
        destruct (proj1 (agree_a_mut P Q s1 s2 E Hag) a H1 H2) as [T R];
        rewrite ?T, ?R; clear H1 H2
    end;
    try (split; reflexivity).
  - destruct (IHb HP HQ E) as [T R]. rewrite T, R. split; reflexivity.
  - destruct (IHb1 ltac:(assumption) ltac:(assumption) E) as [T1 R1],
      (IHb2 ltac:(assumption) ltac:(assumption) E) as [T2 R2].
    rewrite T1, R1, T2, R2. split; reflexivity.
  - destruct (IHb1 ltac:(assumption) ltac:(assumption) E) as [T1 R1],
      (IHb2 ltac:(assumption) ltac:(assumption) E) as [T2 R2].
    rewrite T1, R1, T2, R2. split; reflexivity.
  - split.
    + destruct ex; [apply existsb_ext'|apply forallb_ext']; intros j; apply IHb; assumption.
    + unfold bind. destruct (aevalE E s2 a1); [|reflexivity].
      destruct (aevalE E s2 a2); [|reflexivity].
      f_equal. apply map_ext. intros j. apply IHb; assumption.
  - split.
    + f_equal. apply map_ext. intros j.
      rewrite (proj1 (IHb1 ltac:(assumption) ltac:(assumption) _)),
        (proj1 (IHb2 ltac:(assumption) ltac:(assumption) _)). reflexivity.
    + unfold bind. destruct (aevalE E s2 a1); [|reflexivity].
      destruct (aevalE E s2 a2); [|reflexivity].
      f_equal. f_equal. apply map_ext. intros j.
      rewrite (proj1 (IHb1 ltac:(assumption) ltac:(assumption) _)),
        (proj1 (IHb2 ltac:(assumption) ltac:(assumption) _)). reflexivity.
Qed.

Lemma agree_bevalT : forall P Q s1 s2 b, agreeP P Q s1 s2 ->
  inP P (bvars b) -> inP Q (barrs b) -> bevalT s1 b = bevalT s2 b.
Proof. intros. apply (agree_b P Q s1 s2 H b H0 H1 []). Qed.

Lemma agree_beval : forall P Q s1 s2 b, agreeP P Q s1 s2 ->
  inP P (bvars b) -> inP Q (barrs b) -> beval s1 b = beval s2 b.
Proof. intros. apply (agree_b P Q s1 s2 H b H0 H1 []). Qed.

(** On the variables of a program *)

Lemma agr_aeval : forall X XA s1 s2 a, agr X XA s1 s2 ->
  incl (avars a) X -> incl (aarrs a) XA -> aeval s1 a = aeval s2 a.
Proof. intros. apply (agree_aeval (fun x => In x X) (fun c => In c XA)); assumption. Qed.

Lemma agr_beval : forall X XA s1 s2 b, agr X XA s1 s2 ->
  incl (bvars b) X -> incl (barrs b) XA -> beval s1 b = beval s2 b.
Proof. intros. apply (agree_beval (fun x => In x X) (fun c => In c XA)); assumption. Qed.

Lemma agr_refl : forall X XA s, agr X XA s s.
Proof. intros. split; intros; reflexivity. Qed.

Lemma agr_sym : forall X XA s1 s2, agr X XA s1 s2 -> agr X XA s2 s1.
Proof. intros X XA s1 s2 [H1 H2]. split; intros; symmetry; auto. Qed.

Lemma agr_trans : forall X XA s1 s2 s3, agr X XA s1 s2 -> agr X XA s2 s3 -> agr X XA s1 s3.
Proof. intros X XA s1 s2 s3 [H1 H2] [H3 H4]. split; intros; [rewrite H1|rewrite H2]; auto. Qed.

Lemma agr_store_eq : forall X XA s1 s2, store_eq s1 s2 -> agr X XA s1 s2.
Proof. intros X XA s1 s2 [H1 H2]. split; intros; auto. Qed.

Lemma agr_update : forall X XA s1 s2 x v, agr X XA s1 s2 ->
  agr X XA (update s1 x v) (update s2 x v).
Proof.
  intros X XA s1 s2 x v [H1 H2]. split; intros; simpl; auto.
  destruct (String.eqb x x0); auto.
Qed.

Lemma agr_aupdate : forall X XA s1 s2 a j v, agr X XA s1 s2 ->
  agr X XA (aupdate s1 a j v) (aupdate s2 a j v).
Proof.
  intros X XA s1 s2 a j v [H1 H2]. split; intros; simpl; auto.
  destruct (String.eqb a c && Z.eqb j j0); auto.
Qed.

Ltac incl_tac :=
  repeat match goal with
  | H : incl (_ ++ _) _ |- _ => apply incl_app_inv in H; destruct H
  | H : incl (_ :: _) _ |- _ => apply incl_cons_inv in H; destruct H
  end.

(** A step reads only the variables of the program: from stores equal on them, the same step,
    to stores equal on them. *)
Lemma step_agr : forall X XA c c', step c c' ->
  forall s2, incl (svars (snd c)) X -> incl (sarrs (snd c)) XA -> agr X XA (fst c) s2 ->
  exists s2', step (s2, snd c) (s2', snd c') /\ agr X XA (fst c') s2'.
Proof.
  intros X XA c c' H. induction H; intros s2 HX HA Hs; simpl in *; incl_tac.
  - exists (update s2 x v). split; [|apply agr_update; assumption].
    constructor. rewrite <- (agr_aeval X XA s s2 a Hs); assumption.
  - exists s2. split; [|assumption]. apply S_AssignErr.
    rewrite <- (agr_aeval X XA s s2 a Hs); assumption.
  - exists (aupdate s2 a j v). split; [|apply agr_aupdate; assumption].
    constructor. unfold weval in *.
    rewrite <- (agr_aeval X XA s s2 i Hs), <- (agr_aeval X XA s s2 e Hs); assumption.
  - exists s2. split; [|assumption]. apply S_ArrAssignErr. unfold weval in *.
    rewrite <- (agr_aeval X XA s s2 i Hs), <- (agr_aeval X XA s s2 e Hs); assumption.
  - exists s2. split; [|assumption]. apply S_IfTrue.
    rewrite <- (agr_beval X XA s s2 b Hs); assumption.
  - exists s2. split; [|assumption]. apply S_IfFalse.
    rewrite <- (agr_beval X XA s s2 b Hs); assumption.
  - exists s2. split; [|assumption]. apply S_IfErr.
    rewrite <- (agr_beval X XA s s2 b Hs); assumption.
  - exists s2. split; [constructor|assumption].
  - exists s2. split; [|assumption]. apply S_Assume.
    rewrite <- (agr_beval X XA s s2 b Hs); assumption.
  - exists s2. split; [|assumption]. apply S_AssumeErr.
    rewrite <- (agr_beval X XA s s2 b Hs); assumption.
  - exists s2. split; [constructor|assumption].
  - destruct (IHstep s2 ltac:(assumption) ltac:(assumption) Hs) as [s2' [H4 H5]].
    exists s2'. split; [constructor; assumption|assumption].
Qed.

Ltac in_tac := intros ? ?; simpl in *; repeat rewrite in_app_iff in *; simpl in *; tauto.

(** A step does not add variables, arrays or assignments, and it changes only what the
    program may assign. *)
Lemma step_vars : forall c c', step c c' ->
  incl (svars (snd c')) (svars (snd c)) /\ incl (sarrs (snd c')) (sarrs (snd c)) /\
  incl (mods (snd c')) (mods (snd c)) /\ incl (amods (snd c')) (amods (snd c)) /\
  (forall x, ~ In x (mods (snd c)) -> sv (fst c') x = sv (fst c) x) /\
  (forall a j, ~ In a (amods (snd c)) -> sa (fst c') a j = sa (fst c) a j).
Proof.
  intros c c' H. induction H; simpl.
  all: try (split; [in_tac|]; split; [in_tac|]; split; [in_tac|]; split; [in_tac|];
            split; intros; reflexivity).
  - split; [in_tac|]. split; [in_tac|]. split; [in_tac|]. split; [in_tac|].
    split; [|intros; reflexivity]. intros y Hy. destruct (String.eqb_spec x y); [|reflexivity].
    exfalso. apply Hy. left. assumption.
  - split; [in_tac|]. split; [in_tac|]. split; [in_tac|]. split; [in_tac|].
    split; [intros; reflexivity|]. intros c j0 Hc. destruct (String.eqb_spec a c); [|reflexivity].
    exfalso. apply Hc. left. assumption.
  - simpl in IHstep. destruct IHstep as (H1 & H2 & H3 & H4 & H5 & H6).
    split; [|split; [|split; [|split; [|split]]]].
    + intros z Hz. apply in_app_iff in Hz. apply in_app_iff. destruct Hz; auto.
    + intros z Hz. apply in_app_iff in Hz. apply in_app_iff. destruct Hz; auto.
    + intros z Hz. apply in_app_iff in Hz. apply in_app_iff. destruct Hz; auto.
    + intros z Hz. apply in_app_iff in Hz. apply in_app_iff. destruct Hz; auto.
    + intros x Hx. apply H5. intros Hx'. apply Hx, in_app_iff. auto.
    + intros a j Ha. apply H6. intros Ha'. apply Ha, in_app_iff. auto.
Qed.

(** ** Runs of a given length *)

Lemma nsteps_steps : forall n c c', nsteps n c c' -> steps c c'.
Proof. intros n c c' H. induction H; [constructor|econstructor; eauto]. Qed.

Lemma steps_nsteps : forall c c', steps c c' -> exists n, nsteps n c c'.
Proof.
  intros c c' H. induction H; [exists 0; constructor|].
  destruct IHstar as [n Hn]. exists (S n). econstructor; eauto.
Qed.

Lemma nsteps_trans : forall n m c1 c2 c3, nsteps n c1 c2 -> nsteps m c2 c3 -> nsteps (n + m) c1 c3.
Proof. intros n m c1 c2 c3 H. induction H; intros; simpl; [assumption|econstructor; eauto]. Qed.

Lemma nsteps_seq : forall n s p s' p' q, nsteps n (s, p) (s', p') ->
  nsteps n (s, Seq p q) (s', Seq p' q).
Proof.
  intros n s p s' p' q H. remember (s, p) as c. remember (s', p') as c'.
  revert s p Heqc. induction H; intros s0 p0 E; subst.
  - inversion E; subst. constructor.
  - destruct c2 as [s2 p2]. econstructor; [apply S_Seq; eassumption|]. apply IHnsteps; reflexivity.
Qed.

(** Along a run, the variables and arrays the program does not assign keep their values,
    and no variable is added. *)
Lemma nsteps_vars : forall n c c', nsteps n c c' ->
  incl (svars (snd c')) (svars (snd c)) /\ incl (sarrs (snd c')) (sarrs (snd c)) /\
  (forall x, ~ In x (mods (snd c)) -> sv (fst c') x = sv (fst c) x) /\
  (forall a j, ~ In a (amods (snd c)) -> sa (fst c') a j = sa (fst c) a j).
Proof.
  intros n c c' H. induction H.
  - split; [apply incl_refl|]. split; [apply incl_refl|]. split; intros; reflexivity.
  - destruct (step_vars _ _ H) as (H1 & H2 & H3 & H4 & H5 & H6).
    destruct IHnsteps as (H7 & H8 & H9 & H10).
    split; [eapply incl_tran; eassumption|]. split; [eapply incl_tran; eassumption|].
    split.
    + intros x Hx. rewrite H9, H5; auto.
    + intros a j Ha. rewrite H10, H6; auto.
Qed.

Lemma is_error_skip : is_error Skip = false.
Proof. reflexivity. Qed.

Lemma skip_no_step : forall s c, ~ step (s, Skip) c.
Proof. intros s c H. inversion H. Qed.

Lemma nsteps_from_end : forall n s p c', nsteps n (s, p) c' -> ends p -> n = 0 /\ c' = (s, p).
Proof.
  intros n s p c' H He. inversion H; subst; [split; reflexivity|].
  exfalso. destruct He as [E|E].
  - subst. eapply skip_no_step; eassumption.
  - destruct c2. eapply is_error_no_step; eassumption.
Qed.

(** ** The first statement of a sequence *)

Lemma error_kind_seq : forall p q, error_kind (Seq p q) = error_kind p.
Proof. reflexivity. Qed.

Lemma is_error_kind : forall p, is_error p = true -> exists k, error_kind p = Some k.
Proof.
  intros p H. unfold is_error, error_kind in *. destruct (head p); try discriminate. eauto.
Qed.

Lemma error_kind_is_error : forall p k, error_kind p = Some k -> is_error p = true.
Proof.
  intros p k H. unfold is_error, error_kind in *. destruct (head p); try discriminate. reflexivity.
Qed.

Lemma head_plug : forall p r, head (plug p r) = head r.
Proof. induction p; intros; simpl; auto. Qed.

Lemma is_error_plug : forall p r, is_error (plug p r) = is_error r.
Proof. intros. unfold is_error. rewrite head_plug. reflexivity. Qed.

Lemma error_kind_plug : forall p r, error_kind (plug p r) = error_kind r.
Proof. intros. unfold error_kind. rewrite head_plug. reflexivity. Qed.

Lemma plug_head : forall p, plug p (head p) = p.
Proof. induction p; simpl; auto. rewrite IHp1. reflexivity. Qed.

Lemma plug_error_not_skip : forall p e, is_error e = true -> plug p e <> Skip.
Proof. intros p e H E. rewrite <- is_error_plug with (p := p) in H. rewrite E in H. discriminate. Qed.

(** A run of [p; q] to its end: [p] fails, or [p] ends normally and [q] runs on. *)
Lemma seq_split : forall n s p q c', nsteps n (s, Seq p q) c' -> ends (snd c') ->
  (exists e, nsteps n (s, p) (fst c', e) /\ is_error e = true /\ snd c' = Seq e q) \/
  (exists m s1, m < n /\ nsteps m (s, p) (s1, Skip) /\ nsteps (n - S m) (s1, q) c').
Proof.
  induction n; intros s p q c' H He.
  - inversion H; subst. left. exists p. split; [constructor|]. split; [|reflexivity].
    destruct He as [E|E]; [discriminate|exact E].
  - inversion H; subst. inversion H1; subst.
    + right. exists 0, s. split; [lia|]. split; [constructor|]. simpl. rewrite Nat.sub_0_r. assumption.
    + destruct (IHn s' p' q c' H2 He) as [(e & H3 & H4 & H5)|(m & s1 & H3 & H4 & H5)].
      * left. exists e. split; [econstructor; eassumption|]. auto.
      * right. exists (S m), s1. split; [lia|]. split; [econstructor; eassumption|].
        simpl. assumption.
Qed.

(** A run of [plug p r] to its end: [r] fails, or [r] ends normally and the rest of [p]
    runs on. *)
Lemma plug_split : forall p r n s c', nsteps n (s, plug p r) c' -> ends (snd c') ->
  (exists e, nsteps n (s, r) (fst c', e) /\ is_error e = true /\ snd c' = plug p e) \/
  (exists m s1, m <= n /\ nsteps m (s, r) (s1, Skip) /\ nsteps (n - m) (s1, plug p Skip) c').
Proof.
  induction p; intros r n s c' H He; simpl in *;
    try (destruct c' as [s' p']; simpl in *; destruct He as [E|E];
         [subst; right; exists n, s'; split; [lia|]; split; [assumption|];
          rewrite Nat.sub_diag; constructor
         |left; exists p'; auto]).
  destruct (seq_split n s (plug p1 r) p2 c' H He) as [(e & H1 & H2 & H3)|(m & s1 & H1 & H2 & H3)].
  - destruct (IHp1 r n s (fst c', e) H1 (or_intror H2)) as [(e' & H4 & H5 & H6)|(m & s1 & H4 & H5 & H6)].
    + left. exists e'. simpl in *. subst. auto.
    + right. exists m, s1. split; [assumption|]. split; [assumption|].
      destruct c' as [s' p']. simpl in *. subst. apply nsteps_seq. assumption.
  - destruct (IHp1 r m s (s1, Skip) H2 (or_introl eq_refl)) as [(e' & H4 & H5 & H6)|(m' & s2 & H4 & H5 & H6)].
    + simpl in H6. exfalso. apply (plug_error_not_skip p1 e' H5). auto.
    + right. exists m', s2. split; [lia|]. split; [assumption|].
      replace (n - m') with ((m - m') + (1 + (n - S m))) by lia.
      eapply nsteps_trans; [apply nsteps_seq; eassumption|].
      econstructor; [apply S_SeqSkip|]. assumption.
Qed.

(** ** The concrete runs of a loop, seen through an invariant *)

(** [s] is [s0] outside what [body] may assign. *)
Definition frame (body : stmt) (s0 s : store) : Prop :=
  (forall x, ~ In x (mods body) -> sv s x = sv s0 x) /\
  (forall c j, ~ In c (amods body) -> sa s c j = sa s0 c j).

Lemma frame_refl : forall body s, frame body s s.
Proof. intros. split; intros; reflexivity. Qed.

Lemma frame_body : forall body s0 sk m s1, frame body s0 sk ->
  nsteps m (sk, body) (s1, Skip) -> frame body s0 s1.
Proof.
  intros body s0 sk m s1 [H1 H2] H. destruct (nsteps_vars _ _ _ H) as (_ & _ & H3 & H4).
  simpl in *. split; intros; [rewrite H3|rewrite H4]; auto.
Qed.

Lemma while_not_end : forall b body, ~ ends (While b body).
Proof. intros b body [E|E]; discriminate. Qed.

Lemma if_not_end : forall b p q, ~ ends (If b p q).
Proof. intros b p q [E|E]; discriminate. Qed.

(** A run of [while b do body od] from a store where the invariant holds, to its end: at
    some arrival at the loop head (store [sn], the invariant true, only what the body may
    assign changed), the loop exits, or [b] fails, or the body run from [sn] followed by the
    check of the invariant ends in the same error as the loop or in the failed check. *)
Lemma loop_run : forall I b body n sk c',
  nsteps n (sk, While b body) c' -> ends (snd c') ->
  forall s0, beval sk I = Ok true -> frame body s0 sk ->
  exists sn, beval sn I = Ok true /\ frame body s0 sn /\
   ((snd c' = Skip /\ fst c' = sn /\ beval sn b = Ok false) \/
    (exists k, snd c' = Fail k /\ fst c' = sn /\ beval sn b = Er k) \/
    (beval sn b = Ok true /\ exists m c'', m + 2 <= n /\ nsteps m (sn, Seq body (chk I)) c'' /\
       ((fst c'' = fst c' /\ is_error (snd c'') = true /\
         error_kind (snd c'') = error_kind (snd c')) \/
        exists k, snd c'' = Fail k))).
Proof.
  intros I b body n. induction n as [n IH] using lt_wf_ind.
  intros sk c' H He s0 HI Hf.
  inversion H as [c0 E1 E2|n' c1 c2 c3 H1 H2 E1 E2]; subst.
  { exfalso. apply (while_not_end b body He). }
  inversion H1; subst.
  inversion H2 as [c0 E1 E2|n'' c1 c2 c3 H3 H4 E1 E2]; subst.
  { exfalso. apply (if_not_end _ _ _ He). }
  inversion H3; subst.
  - (* b true: the body *)
    destruct (seq_split n'' sk body (While b body) c' H4 He)
      as [(e & H5 & H6 & H7)|(m & s1 & H5 & H6 & H7)].
    + exists sk. split; [assumption|]. split; [assumption|]. right. right.
      split; [assumption|]. exists n'', (fst c', Seq e (chk I)).
      split; [lia|]. split; [apply nsteps_seq; assumption|].
      left. simpl. rewrite H7. auto.
    + assert (Hf1 : frame body s0 s1) by (eapply frame_body; eassumption).
      assert (Hn : n'' - S m <> 0).
      { intros E. rewrite E in H7. inversion H7; subst. apply (while_not_end b body He). }
      destruct (beval s1 I) as [[|]|k] eqn:HI1.
      * destruct (IH (n'' - S m) ltac:(lia) s1 c' H7 He s0 HI1 Hf1)
          as (sn & G8 & G9 & H10).
        exists sn. split; [assumption|]. split; [assumption|].
        destruct H10 as [H10|[H10|(H10 & m' & c'' & H11 & H12 & H13)]]; auto.
        right. right. split; [assumption|]. exists m', c''. split; [lia|]. auto.
      * exists sk. split; [assumption|]. split; [assumption|]. right. right.
        split; [assumption|]. exists (m + 2), (s1, Fail KFail). split; [lia|].
        split; [|right; exists KFail; reflexivity].
        eapply nsteps_trans; [apply nsteps_seq; eassumption|].
        econstructor; [apply S_SeqSkip|]. unfold chk. econstructor; [apply S_IfFalse; assumption|]. constructor.
      * exists sk. split; [assumption|]. split; [assumption|]. right. right.
        split; [assumption|]. exists (m + 2), (s1, Fail k). split; [lia|].
        split; [|right; exists k; reflexivity].
        eapply nsteps_trans; [apply nsteps_seq; eassumption|].
        econstructor; [apply S_SeqSkip|]. unfold chk. econstructor; [eapply S_IfErr; eassumption|]. constructor.
  - (* b false: the exit *)
    destruct (nsteps_from_end _ _ _ _ H4 (or_introl eq_refl)) as [_ E]. subst.
    exists sk. split; [assumption|]. split; [assumption|]. left. auto.
  - (* b fails *)
    destruct (nsteps_from_end _ _ _ _ H4 (or_intror eq_refl)) as [_ E]. subst.
    exists sk. split; [assumption|]. split; [assumption|]. right. left. exists k. auto.
Qed.

(** ** The havoc *)

Lemma memb_In : forall x l, memb x l = true <-> In x l.
Proof.
  intros x l. unfold memb. rewrite existsb_exists. split.
  - intros (y & H1 & H2). apply String.eqb_eq in H2. subst. assumption.
  - intros H. exists x. split; [assumption|]. apply String.eqb_refl.
Qed.

Lemma memb_false : forall x l, memb x l = false <-> ~ In x l.
Proof.
  intros x l. rewrite <- memb_In. destruct (memb x l); split; intros; congruence.
Qed.

(** The valuation of the havocked state: [V] on the old symbols, the values of [sn] on the
    fresh ones. *)
Definition hval (V : store) (M A : list var) (fv fa : var -> var) (sn : store) : store :=
  Store (fun z => match find (fun x => String.eqb (fv x) z) M with
                  | Some x => sv sn x
                  | None => sv V z
                  end)
        (fun c j => match find (fun d => String.eqb (fa d) c) A with
                    | Some d => sa sn d j
                    | None => sa V c j
                    end).

(** [z] is none of the fresh symbols [f x], [x] in [M]. *)
Definition notf (M : list var) (f : var -> var) (z : var) : Prop := forall x, In x M -> f x <> z.

Lemma hval_agree : forall V M A fv fa sn,
  agreeP (notf M fv) (notf A fa) (hval V M A fv fa sn) V.
Proof.
  intros V M A fv fa sn. split.
  - intros z Hz. simpl. destruct (find (fun x => String.eqb (fv x) z) M) eqn:E; [|reflexivity].
    apply find_some in E. destruct E as [E1 E2]. apply String.eqb_eq in E2.
    exfalso. apply (Hz v E1 E2).
  - intros c j Hc. simpl. destruct (find (fun d => String.eqb (fa d) c) A) eqn:E; [|reflexivity].
    apply find_some in E. destruct E as [E1 E2]. apply String.eqb_eq in E2.
    exfalso. apply (Hc v E1 E2).
Qed.

Lemma hval_fv : forall V M A fv fa sn x,
  (forall x y, In x M -> In y M -> fv x = fv y -> x = y) -> In x M ->
  sv (hval V M A fv fa sn) (fv x) = sv sn x.
Proof.
  intros V M A fv fa sn x Hinj Hx. simpl.
  destruct (find (fun y => String.eqb (fv y) (fv x)) M) eqn:E.
  - apply find_some in E. destruct E as [E1 E2]. apply String.eqb_eq in E2.
    rewrite (Hinj v x E1 Hx E2). reflexivity.
  - exfalso. apply (find_none _ _ E) in Hx. rewrite String.eqb_refl in Hx. discriminate.
Qed.

Lemma hval_fa : forall V M A fv fa sn c j,
  (forall c d, In c A -> In d A -> fa c = fa d -> c = d) -> In c A ->
  sa (hval V M A fv fa sn) (fa c) j = sa sn c j.
Proof.
  intros V M A fv fa sn c j Hinj Hc. simpl.
  destruct (find (fun d => String.eqb (fa d) (fa c)) A) eqn:E.
  - apply find_some in E. destruct E as [E1 E2]. apply String.eqb_eq in E2.
    rewrite (Hinj v c E1 Hc E2). reflexivity.
  - exfalso. apply (find_none _ _ E) in Hc. rewrite String.eqb_refl in Hc. discriminate.
Qed.

Lemma notin_notf : forall M (f : var -> var) l, (forall x, In x M -> ~ In (f x) l) -> inP (notf M f) l.
Proof. intros M f l H z Hz x Hx E. subst. apply (H x Hx Hz). Qed.

(** The havocked state, under [hval], concretizes to any store [sn] that differs from the
    concretization of the state only on what it havocs. *)
Lemma havoc_cover : forall X XA phi Sg M A fv fa V s sn,
  incl M X -> incl A XA -> fresh X XA phi Sg M A fv fa ->
  sat V phi -> wf V Sg -> id_out X XA Sg -> agr X XA s (compose V Sg) ->
  (forall x, ~ In x M -> sv sn x = sv s x) -> (forall c j, ~ In c A -> sa sn c j = sa s c j) ->
  sat (hval V M A fv fa sn) phi /\ wf (hval V M A fv fa sn) (havoc M A fv fa Sg) /\
  id_out X XA (havoc M A fv fa Sg) /\
  agr X XA sn (compose (hval V M A fv fa sn) (havoc M A fv fa Sg)).
Proof.
  intros X XA phi Sg M A fv fa V s sn HM HA (Hiv & Hia & Hfv & Hfa) Hphi [Hwv Hwa] [Hidv Hida]
    [Hsv Hsa] Hfrv Hfra.
  set (V' := hval V M A fv fa sn).
  pose proof (hval_agree V M A fv fa sn) as Hag. fold V' in Hag.
  (* the kept entries read no fresh symbol *)
  assert (Kv : forall y, In y X -> ~ In y M ->
            inP (notf M fv) (avars (ssv Sg y)) /\ inP (notf A fa) (aarrs (ssv Sg y))).
  { intros y Hy HyM. split; apply notin_notf; intros.
    - apply (proj1 (proj2 (Hfv x H))); assumption.
    - apply (proj1 (proj2 (Hfa x H))); assumption. }
  assert (Ka : forall c, In c XA -> ~ In c A ->
            inP (notf M fv) (arvars (ssa Sg c)) /\ inP (notf A fa) (ararrs (ssa Sg c))).
  { intros c Hc HcA. split; apply notin_notf; intros.
    - apply (proj2 (proj2 (Hfv x H))); assumption.
    - apply (proj2 (proj2 (Hfa x H))); assumption. }
  split; [|split; [|split]].
  - unfold sat. rewrite (agree_bevalT _ _ _ _ phi Hag); [assumption| |];
      apply notin_notf; intros; [apply Hfv|apply Hfa]; assumption.
  - split.
    + intros y. simpl. destruct (memb y M) eqn:Ey; [reflexivity|]. apply memb_false in Ey.
      destruct (in_dec string_dec y X) as [Hy|Hy].
      * destruct (Kv y Hy Ey) as [K1 K2].
        rewrite (agree_aeval _ _ _ _ _ Hag K1 K2), (agree_aevalT _ _ _ _ _ Hag K1 K2). apply Hwv.
      * rewrite (Hidv y Hy). reflexivity.
    + intros c. simpl. destruct (memb c A) eqn:Ec; [reflexivity|]. apply memb_false in Ec.
      destruct (in_dec string_dec c XA) as [Hc|Hc].
      * destruct (Ka c Hc Ec) as [K1 K2]. rewrite (agree_arerr _ _ _ _ _ Hag K1 K2). apply Hwa.
      * rewrite (Hida c Hc). reflexivity.
  - split.
    + intros y Hy. simpl. destruct (memb y M) eqn:Ey; [|apply Hidv; assumption].
      apply memb_In in Ey. exfalso. apply Hy, HM, Ey.
    + intros c Hc. simpl. destruct (memb c A) eqn:Ec; [|apply Hida; assumption].
      apply memb_In in Ec. exfalso. apply Hc, HA, Ec.
  - split.
    + intros y Hy. simpl. destruct (memb y M) eqn:Ey.
      * apply memb_In in Ey. unfold aevalT. simpl. symmetry. apply (hval_fv V M A fv fa sn y); assumption.
      * apply memb_false in Ey. destruct (Kv y Hy Ey) as [K1 K2].
        rewrite (agree_aevalT _ _ _ _ _ Hag K1 K2), Hfrv by assumption. apply Hsv. assumption.
    + intros c j Hc. simpl. destruct (memb c A) eqn:Ec.
      * apply memb_In in Ec. unfold agetT. simpl. symmetry. apply (hval_fa V M A fv fa sn c j); assumption.
      * apply memb_false in Ec. destruct (Ka c Hc Ec) as [K1 K2].
        rewrite (agree_agetT _ _ _ _ _ j Hag K1 K2), Hfra by assumption. apply Hsa. assumption.
Qed.

(** ** Formulas on a concretized state *)

Lemma formula_at : forall X XA V Sg s c, wf V Sg -> agr X XA s (compose V Sg) ->
  incl (bvars c) X -> incl (barrs c) XA -> beval V (bsubst Sg c) = beval s c.
Proof.
  intros. rewrite (beval_subst _ _ _ H). symmetry. eapply agr_beval; eassumption.
Qed.

Lemma sat_holds : forall V c, beval V c = Ok true -> sat V (holds c).
Proof.
  intros V c H. apply sat_and. split; [apply bD_correct; eauto|].
  apply (beval_total _ _ _ H).
Qed.

Lemma sat_holds_not : forall V c, beval V c = Ok false -> sat V (holds_not c).
Proof.
  intros V c H. apply sat_and. split; [apply bD_correct; eauto|].
  apply sat_not. apply (beval_total _ _ _ H).
Qed.

Lemma sat_bF : forall V k c, beval V c = Er k -> sat V (bF k c).
Proof. intros. apply bF_correct. assumption. Qed.

(** ** Variables of the parts of a program *)

Lemma head_vars : forall p, incl (svars (head p)) (svars p) /\ incl (sarrs (head p)) (sarrs p).
Proof.
  induction p; simpl; try (split; apply incl_refl).
  destruct IHp1 as [H1 H2]. split; apply incl_appl; assumption.
Qed.

Lemma mods_vars : forall p, incl (mods p) (svars p) /\ incl (amods p) (sarrs p).
Proof.
  induction p; simpl; try (split; apply incl_nil_l).
  - split; [apply incl_cons; [left; reflexivity|apply incl_nil_l]|apply incl_nil_l].
  - split; [apply incl_nil_l|apply incl_cons; [left; reflexivity|apply incl_nil_l]].
  - destruct IHp1, IHp2. split; apply incl_app; auto using incl_appl, incl_appr.
  - destruct IHp1, IHp2. split; apply incl_app; apply incl_appr; auto using incl_appl, incl_appr.
  - destruct IHp. split; apply incl_appr; assumption.
Qed.

Lemma plug_vars : forall p r, incl (svars (plug p r)) (svars r ++ svars p) /\
  incl (sarrs (plug p r)) (sarrs r ++ sarrs p).
Proof.
  induction p; intros r; simpl; try (split; apply incl_appl, incl_refl).
  destruct (IHp1 r) as [H1 H2]. split; intros z Hz; apply in_app_iff in Hz;
    repeat rewrite in_app_iff in *; destruct Hz as [Hz|Hz];
    [apply H1 in Hz; apply in_app_iff in Hz; tauto|tauto|apply H2 in Hz; apply in_app_iff in Hz; tauto|tauto].
Qed.

Lemma loop_not_end : forall p b body, head p = While b body -> ~ ends p.
Proof.
  intros p b body H [E|E].
  - subst. discriminate.
  - unfold is_error in E. rewrite H in E. discriminate.
Qed.

Lemma agreeP_refl : forall P Q s, agreeP P Q s s.
Proof. intros. split; intros; reflexivity. Qed.

Lemma same_end_refl : forall X XA c, ends (snd c) -> same_end X XA c c.
Proof.
  intros X XA c [E|E]; split; [apply agr_refl| |apply agr_refl|]; auto.
  right. destruct (is_error_kind _ E) as [k Hk]. eauto.
Qed.

(** ** The invariant transition is exhaustive when its claims hold

    From a state concretized by [V] (on the variables of the program), every run of the loop
    to its end (normal or an error) is reproduced, no longer, from a successor of the
    transition concretized by [V'] ([V] changed on the fresh symbols only): the run from
    the successor ends in the same store on [X], [XA], and both end normally or with the
    same kind of error; or else a claim fails: the entry claim's successor itself, or the
    run of the body from the body successor ending in the failed check of the invariant. *)
Theorem inv_exhaustive : forall X XA I fv fa phi Sg p b body V s n c',
  head p = While b body ->
  incl (svars p) X -> incl (sarrs p) XA -> incl (bvars I) X -> incl (barrs I) XA ->
  fresh X XA phi Sg (mods body) (amods body) fv fa ->
  sat V phi -> wf V Sg -> id_out X XA Sg -> agr X XA s (compose V Sg) ->
  nsteps n (s, p) c' -> ends (snd c') ->
  exists g t' V' s0 m c'',
    inv_succ I fv fa (phi, Sg, p) g t' /\
    agreeP (notf (mods body) fv) (notf (amods body) fa) V' V /\
    sat V' (pc t') /\ wf V' (sst t') /\ id_out X XA (sst t') /\
    agr X XA s0 (compose V' (sst t')) /\
    m < n /\ nsteps m (s0, prog t') c'' /\
    (same_end X XA c'' c' \/ claim_fails g c'').
Proof.
  intros X XA I fv fa phi Sg p b body V s n c' Hh HX HXA HIX HIXA Hfr Hphi Hwf Hid Hs Hrun Hend.
  assert (Hn : n <> 0).
  { intros E. subst. inversion Hrun; subst. apply (loop_not_end p b body Hh Hend). }
  destruct (head_vars p) as [Hv1 Hv2]. rewrite Hh in Hv1, Hv2. simpl in Hv1, Hv2.
  assert (HbX : incl (bvars b) X) by (intros z Hz; apply HX, Hv1, in_or_app; auto).
  assert (HbXA : incl (barrs b) XA) by (intros z Hz; apply HXA, Hv2, in_or_app; auto).
  assert (HMX : incl (mods body) X)
    by (intros z Hz; apply HX, Hv1, in_or_app; right; apply (proj1 (mods_vars body)), Hz).
  assert (HAX : incl (amods body) XA)
    by (intros z Hz; apply HXA, Hv2, in_or_app; right; apply (proj2 (mods_vars body)), Hz).
  pose proof (formula_at X XA V Sg s I Hwf Hs HIX HIXA) as HIV.
  destruct (beval s I) as [[|]|k] eqn:HI.
  2: { (* the entry claim: I false *)
    exists TEntry, (Band phi (holds_not (bsubst Sg I)), Sg, plug p (Fail KFail)), V, s, 0,
      (s, plug p (Fail KFail)).
    split; [eapply V_EntryFalse; eassumption|]. split; [apply agreeP_refl|].
    split; [apply sat_and; split; [assumption|apply sat_holds_not; assumption]|].
    split; [assumption|]. split; [assumption|]. split; [assumption|].
    split; [lia|]. split; [constructor|]. right. left. split; [reflexivity|].
    simpl. rewrite is_error_plug. reflexivity. }
  2: { (* the entry claim: I fails *)
    exists TEntry, (Band phi (bF k (bsubst Sg I)), Sg, plug p (Fail k)), V, s, 0, (s, plug p (Fail k)).
    split; [eapply V_EntryErr; [eassumption|]; eapply beval_err_can; eassumption|].
    split; [apply agreeP_refl|].
    split; [apply sat_and; split; [assumption|apply sat_bF; assumption]|].
    split; [assumption|]. split; [assumption|]. split; [assumption|].
    split; [lia|]. split; [constructor|]. right. left. split; [reflexivity|].
    simpl. rewrite is_error_plug. reflexivity. }
  (* the invariant holds at entry: the runs of the loop *)
  set (H := hbody body fv fa Sg).
  rewrite <- (plug_head p), Hh in Hrun.
  destruct (plug_split p (While b body) n s c' Hrun Hend)
    as [(e & H1 & H2 & H3)|(m & s1 & H1 & H2 & H3)].
  - (* the loop ends in an error *)
    destruct (loop_run I b body n s (fst c', e) H1 (or_intror H2) s HI (frame_refl body s))
      as (sn & HIn & [Hf1 Hf2] & [(E & _)|[(k & E1 & E2 & Hb)|(Hb & m & c'' & H4 & H5 & H6)]]).
    + simpl in E. subst. discriminate.
    + simpl in E1, E2. subst e sn.
      destruct (havoc_cover X XA phi Sg (mods body) (amods body) fv fa V s (fst c')
                  HMX HAX Hfr Hphi Hwf Hid Hs Hf1 Hf2) as (K1 & K2 & K3 & K4).
      exists TCond, (Band phi (Band (holds (bsubst H I)) (bF k (bsubst H b))), H, plug p (Fail k)),
        (hval V (mods body) (amods body) fv fa (fst c')), (fst c'), 0, (fst c', plug p (Fail k)).
      split; [eapply V_CondErr; [eassumption|]; eapply beval_err_can; eassumption|].
      split; [apply hval_agree|].
      split.
      { unfold H, hbody. apply sat_and. split; [assumption|]. apply sat_and. split.
        - apply sat_holds. rewrite (formula_at X XA _ _ (fst c') I K2 K4 HIX HIXA). assumption.
        - apply sat_bF. rewrite (formula_at X XA _ _ (fst c') b K2 K4 HbX HbXA). assumption. }
      split; [assumption|]. split; [assumption|]. split; [assumption|].
      split; [lia|]. split; [constructor|]. left.
      destruct c' as [s' p']. simpl in *. subst p'. apply same_end_refl. right.
      simpl. rewrite is_error_plug. reflexivity.
    + destruct (havoc_cover X XA phi Sg (mods body) (amods body) fv fa V s sn
                  HMX HAX Hfr Hphi Hwf Hid Hs Hf1 Hf2) as (K1 & K2 & K3 & K4).
      exists TBody, (Band phi (Band (holds (bsubst H I)) (holds (bsubst H b))), H, Seq body (chk I)),
        (hval V (mods body) (amods body) fv fa sn), sn, m, c''.
      split; [eapply V_Body; eassumption|].
      split; [apply hval_agree|].
      split.
      { unfold H, hbody. apply sat_and. split; [assumption|]. apply sat_and. split.
        - apply sat_holds. rewrite (formula_at X XA _ _ sn I K2 K4 HIX HIXA). assumption.
        - apply sat_holds. rewrite (formula_at X XA _ _ sn b K2 K4 HbX HbXA). assumption. }
      split; [assumption|]. split; [assumption|]. split; [assumption|].
      split; [lia|]. split; [assumption|].
      destruct H6 as [(E1 & E2 & E3)|E].
      * left. split; [rewrite E1; apply agr_refl|]. right.
        destruct (is_error_kind _ E2) as [k Hk]. exists k. split; [assumption|].
        rewrite H3, error_kind_plug. simpl in E3. rewrite <- E3. assumption.
      * right. right. auto.
  - (* the loop ends normally, the program goes on *)
    assert (Hm : m <> 0).
    { intros E. subst. inversion H2. }
    destruct (loop_run I b body m s (s1, Skip) H2 (or_introl eq_refl) s HI (frame_refl body s))
      as (sn & HIn & [Hf1 Hf2] & [(_ & E & Hb)|[(k & E1 & _)|(Hb & m' & c'' & H4 & H5 & H6)]]).
    + simpl in E. subst sn.
      destruct (havoc_cover X XA phi Sg (mods body) (amods body) fv fa V s s1
                  HMX HAX Hfr Hphi Hwf Hid Hs Hf1 Hf2) as (K1 & K2 & K3 & K4).
      exists TExit, (Band phi (Band (holds (bsubst H I)) (holds_not (bsubst H b))), H, plug p Skip),
        (hval V (mods body) (amods body) fv fa s1), s1, (n - m), c'.
      split; [eapply V_Exit; eassumption|].
      split; [apply hval_agree|].
      split.
      { unfold H, hbody. apply sat_and. split; [assumption|]. apply sat_and. split.
        - apply sat_holds. rewrite (formula_at X XA _ _ s1 I K2 K4 HIX HIXA). assumption.
        - apply sat_holds_not. rewrite (formula_at X XA _ _ s1 b K2 K4 HbX HbXA). assumption. }
      split; [assumption|]. split; [assumption|]. split; [assumption|].
      split; [lia|]. split; [assumption|]. left. apply same_end_refl. assumption.
    + discriminate.
    + destruct (havoc_cover X XA phi Sg (mods body) (amods body) fv fa V s sn
                  HMX HAX Hfr Hphi Hwf Hid Hs Hf1 Hf2) as (K1 & K2 & K3 & K4).
      exists TBody, (Band phi (Band (holds (bsubst H I)) (holds (bsubst H b))), H, Seq body (chk I)),
        (hval V (mods body) (amods body) fv fa sn), sn, m', c''.
      split; [eapply V_Body; eassumption|].
      split; [apply hval_agree|].
      split.
      { unfold H, hbody. apply sat_and. split; [assumption|]. apply sat_and. split.
        - apply sat_holds. rewrite (formula_at X XA _ _ sn I K2 K4 HIX HIXA). assumption.
        - apply sat_holds. rewrite (formula_at X XA _ _ sn b K2 K4 HbX HbXA). assumption. }
      split; [assumption|]. split; [assumption|]. split; [assumption|].
      split; [lia|]. split; [assumption|].
      destruct H6 as [(E1 & E2 & E3)|E].
      * exfalso. destruct (is_error_kind _ E2) as [k Hk]. rewrite E3 in Hk. discriminate.
      * right. right. auto.
Qed.

(** ** The proof mode *)

(** Symbolic steps keep the identity outside the variables of the program. *)
Lemma sym_step_id_out : forall X XA phi Sg p phi' Sg' p',
  sym_step (phi, Sg, p) (phi', Sg', p') -> incl (svars p) X -> incl (sarrs p) XA ->
  id_out X XA Sg -> id_out X XA Sg'.
Proof.
  intros X XA phi Sg p phi' Sg' p' H. remember (phi, Sg, p) as t. remember (phi', Sg', p') as t'.
  revert phi Sg p phi' Sg' p' Heqt Heqt'.
  induction H; intros phi0 Sg0 p0 phi0' Sg0' p0' E E' HX HXA Hid;
    inversion E; inversion E'; subst; try assumption.
  - destruct Hid as [H1 H2]. split; [|assumption]. intros y Hy. simpl.
    destruct (String.eqb_spec x y); [|apply H1; assumption].
    exfalso. subst. apply Hy, HX. left. reflexivity.
  - destruct Hid as [H1 H2]. split; [assumption|]. intros c Hc. simpl.
    destruct (String.eqb_spec a c); [|apply H2; assumption].
    exfalso. subst. apply Hc, HXA. left. reflexivity.
  - simpl in HX, HXA. eapply IHsym_step; eauto using incl_appl, incl_app_inv.
    + intros z Hz. apply HX, in_or_app. auto.
    + intros z Hz. apply HXA, in_or_app. auto.
Qed.

(** The successors of the transition mention only the variables of the loop's program and
    of its invariant. *)
Lemma inv_succ_vars : forall X XA I fv fa t g t', inv_succ I fv fa t g t' ->
  incl (svars (prog t)) X -> incl (sarrs (prog t)) XA -> incl (bvars I) X -> incl (barrs I) XA ->
  incl (svars (prog t')) X /\ incl (sarrs (prog t')) XA.
Proof.
  intros X XA I fv fa t g t' H HX HXA HIX HIXA. simpl in *.
  assert (Hplug : forall p r, svars r = [] -> sarrs r = [] -> incl (svars p) X ->
            incl (sarrs p) XA -> incl (svars (plug p r)) X /\ incl (sarrs (plug p r)) XA).
  { intros p r E1 E2 H1 H2. destruct (plug_vars p r) as [P1 P2]. rewrite E1 in P1. rewrite E2 in P2.
    split; eapply incl_tran; eassumption. }
  inversion H; subst; simpl in *; try (apply Hplug; auto; fail).
  destruct (head_vars p) as [Hv1 Hv2]. rewrite H0 in Hv1, Hv2. simpl in Hv1, Hv2.
  split; apply incl_app.
  - intros z Hz. apply HX, Hv1, in_or_app. auto.
  - rewrite !app_nil_r. assumption.
  - intros z Hz. apply HXA, Hv2, in_or_app. auto.
  - rewrite !app_nil_r. assumption.
Qed.

(** The mode state [t] covers the concrete store [s] under [V]. *)
Definition pinv (X XA : list var) (V : store) (t : sym_state) (s : store) : Prop :=
  sat V (pc t) /\ wf V (sst t) /\ id_out X XA (sst t) /\ agr X XA s (compose V (sst t)) /\
  incl (svars (prog t)) X /\ incl (sarrs (prog t)) XA.

(** Every run from a covered store to an error is matched by an error state of the mode
    with a satisfiable path condition. *)
Lemma pcover : forall X XA J ch, ch_ok X XA ch -> inv_in X XA J ->
  forall n t V s c', pinv X XA V t s -> nsteps n (s, prog t) c' -> is_error (snd c') = true ->
  exists t' V', psteps J ch t t' /\ is_error (prog t') = true /\ sat V' (pc t').
Proof.
  intros X XA J ch Hch HJ n. induction n as [n IH] using lt_wf_ind.
  intros [[phi Sg] p] V s c' (Hphi & Hwf & Hid & Hs & HX & HXA) Hrun Herr. simpl in *.
  destruct (loop_inv J p) as [I|] eqn:HJp.
  - (* an annotated loop: the invariant transition *)
    pose proof HJp as HJp'. unfold loop_inv in HJp'.
    destruct (head p) as [| | | | | | b body|] eqn:Hh; try discriminate.
    destruct (head_vars p) as [Hv1 Hv2]. rewrite Hh in Hv1, Hv2.
    destruct (HJ b body I HJp' (incl_tran Hv1 HX) (incl_tran Hv2 HXA)) as [HIX HIXA].
    destruct (inv_exhaustive X XA I (fst (ch (phi, Sg, p))) (snd (ch (phi, Sg, p))) phi Sg p b body
                V s n c' Hh HX HXA HIX HIXA (Hch phi Sg p b body Hh) Hphi Hwf Hid Hs Hrun
                (or_intror Herr))
      as (g & t' & V' & s0 & m & c'' & H1 & _ & H3 & H4 & H5 & H6 & H7 & H8 & H9).
    assert (Herr'' : is_error (snd c'') = true).
    { destruct H9 as [(_ & [(_ & E)|(k & E1 & _)])|[(_ & E)|(_ & k & E)]].
      - rewrite E in Herr. discriminate.
      - eapply error_kind_is_error. eassumption.
      - assumption.
      - rewrite E. reflexivity. }
    destruct (inv_succ_vars X XA I _ _ _ _ _ H1 HX HXA HIX HIXA) as [HX' HXA'].
    destruct (IH m H7 t' V' s0 c'' (conj H3 (conj H4 (conj H5 (conj H6 (conj HX' HXA')))))
                H8 Herr'') as (t'' & V'' & H10 & H11 & H12).
    exists t'', V''. split; [|auto].
    econstructor; [|eassumption]. eapply P_Inv; [exact HJp|exact H1].
  - (* elsewhere: one step of the symbolic semantics *)
    destruct n as [|n'].
    { inversion Hrun; subst. exists (phi, Sg, p), V. split; [constructor|]. auto. }
    inversion Hrun as [|n0 c1 [s2 p2] c3 H1 H2 E1 E2]; subst.
    destruct (step_agr X XA _ _ H1 (compose V Sg) HX HXA Hs) as [s3 [H3 H4]]. simpl in H3, H4.
    destruct (sym_step_complete V phi Sg (compose V Sg) p s3 p2 Hphi Hwf (store_eq_refl _) H3)
      as (phi' & Sg' & H5 & H6 & H7).
    destruct (step_vars _ _ H1) as (H8 & H9 & _). simpl in H8, H9.
    assert (Hp : pinv X XA V (phi', Sg', p2) s2).
    { split; [assumption|]. split; [eapply sym_step_wf; eassumption|].
      split; [eapply sym_step_id_out; eassumption|].
      split; [eapply agr_trans; [eassumption|apply agr_store_eq; assumption]|].
      split; eapply incl_tran; eassumption. }
    destruct (IH n' ltac:(lia) _ V s2 c' Hp H2 Herr) as (t'' & V'' & H10 & H11 & H12).
    exists t'', V''. split; [|auto].
    econstructor; [|eassumption]. apply P_Sym; assumption.
Qed.

(** Soundness of the proof mode: when every error state the mode reaches from
    [⟨true, id, p⟩] has an unsatisfiable path condition (the entry and preservation claims of
    every annotated loop, every [fail] and desugared [assert], every runtime error check is
    valid), no run of [p] reaches an error.  The mode's fresh symbols are those of any
    chooser that picks them fresh for the program's variables. *)
Theorem prove_sound : forall X XA J ch p,
  ch_ok X XA ch -> inv_in X XA J -> incl (svars p) X -> incl (sarrs p) XA ->
  (forall t, psteps J ch (sym_init p) t -> is_error (prog t) = true -> forall V, ~ sat V (pc t)) ->
  forall V c, steps (V, p) c -> is_error (snd c) = false.
Proof.
  intros X XA J ch p Hch HJ HX HXA Hclaims V c Hrun.
  destruct (is_error (snd c)) eqn:E; [exfalso|reflexivity].
  destruct (steps_nsteps _ _ Hrun) as [n Hn].
  assert (Hp : pinv X XA V (sym_init p) V).
  { split; [apply sat_true|]. split; [apply wf_sid|]. split; [split; reflexivity|].
    split; [apply agr_store_eq, compose_sid|]. split; assumption. }
  destruct (pcover X XA J ch Hch HJ n (sym_init p) V V c Hp Hn E) as (t & V' & H1 & H2 & H3).
  apply (Hclaims t H1 H2 V' H3).
Qed.

(** In the terms of Section 2: the program has no bug. *)
Corollary prove_no_bug : forall X XA J ch p,
  ch_ok X XA ch -> inv_in X XA J -> incl (svars p) X -> incl (sarrs p) XA ->
  (forall t, psteps J ch (sym_init p) t -> is_error (prog t) = true -> forall V, ~ sat V (pc t)) ->
  ~ has_bug p.
Proof.
  intros X XA J ch p Hch HJ HX HXA Hclaims [c (V & s & H1 & _ & H2)].
  pose proof (prove_sound X XA J ch p Hch HJ HX HXA Hclaims V (s, snd c) H1) as E. simpl in E.
  rewrite E in H2. discriminate.
Qed.

(** *** The default chooser picks fresh symbols *)

Lemma length_append : forall x y, String.length (String.append x y) = String.length x + String.length y.
Proof. induction x; intros; simpl; auto. Qed.

Lemma length_pad : forall n, String.length (pad n) = n.
Proof. induction n; simpl; auto. Qed.

Lemma append_inj : forall x y u, String.append x u = String.append y u -> x = y.
Proof.
  induction x as [|a x IHx]; intros y u H; destruct y as [|a' y]; simpl in *; auto.
  - exfalso. assert (E : String.length u = String.length (String a' (String.append y u))) by congruence.
    simpl in E. rewrite length_append in E. lia.
  - exfalso. assert (E : String.length (String a (String.append x u)) = String.length u) by congruence.
    simpl in E. rewrite length_append in E. lia.
  - injection H as E1 E2. subst. f_equal. eapply IHx; eassumption.
Qed.

Lemma maxlen_ge : forall z l, In z l -> String.length z <= maxlen l.
Proof.
  induction l; intros H; simpl in *; [contradiction|].
  destruct H as [E|H]; [subst; lia|]. specialize (IHl H). lia.
Qed.

Lemma padded_notin : forall L l x, incl l L -> ~ In (String.append x (pad (S (maxlen L)))) l.
Proof.
  intros L l x Hl H. apply Hl, maxlen_ge in H. rewrite length_append, length_pad in H. lia.
Qed.

Theorem ch_default_ok : forall X XA, ch_ok X XA (ch_default X XA).
Proof.
  intros X XA phi Sg p b body _. unfold ch_default. simpl.
  split; [|split; [|split]].
  - intros x y _ _ E. eapply append_inj; eassumption.
  - intros c d _ _ E. eapply append_inj; eassumption.
  - intros x _. split; [|split].
    + apply padded_notin. unfold syms_v. apply incl_appl, incl_refl.
    + intros y Hy _. apply padded_notin. unfold syms_v. apply incl_appr, incl_appl.
      intros z Hz. apply in_flat_map. eauto.
    + intros c Hc _. apply padded_notin. unfold syms_v. apply incl_appr, incl_appr.
      intros z Hz. apply in_flat_map. eauto.
  - intros c _. split; [|split].
    + apply padded_notin. unfold syms_a. apply incl_appl, incl_refl.
    + intros y Hy _. apply padded_notin. unfold syms_a. apply incl_appr, incl_appl.
      intros z Hz. apply in_flat_map. eauto.
    + intros d Hd _. apply padded_notin. unfold syms_a. apply incl_appr, incl_appr.
      intros z Hz. apply in_flat_map. eauto.
Qed.

(** *** The desugared loops *)

Lemma chk_of_some : forall q c, chk_of q = Some c -> q = chk c.
Proof.
  intros q c H. destruct q; try discriminate. destruct q1; try discriminate.
  destruct q2; try discriminate. destruct k; try discriminate. simpl in H. inversion H. reflexivity.
Qed.

Theorem jdesugar_inv_in : forall X XA, inv_in X XA jdesugar.
Proof.
  intros X XA b body I H HX HXA. unfold jdesugar in H.
  destruct body as [| | | |body1 q| | |]; try discriminate.
  apply chk_of_some in H. subst q. simpl in HX, HXA.
  split; intros z Hz; [apply HX|apply HXA]; rewrite !in_app_iff; auto.
Qed.

(** The proof mode on the desugared program [p], with the default chooser: when every error
    state it reaches has an unsatisfiable path condition, no run of [p] fails. *)
Corollary prove_sound_desugared : forall p,
  (forall t, psteps jdesugar (ch_default (svars p) (sarrs p)) (sym_init p) t ->
     is_error (prog t) = true -> forall V, ~ sat V (pc t)) ->
  forall V c, steps (V, p) c -> is_error (snd c) = false.
Proof.
  intros p H. apply (prove_sound (svars p) (sarrs p) jdesugar _ p (ch_default_ok _ _)
                       (jdesugar_inv_in _ _) (incl_refl _) (incl_refl _) H).
Qed.
